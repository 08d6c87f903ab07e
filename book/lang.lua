--[[ lang.lua: keep one language of a bilingual page woven by weave.py.

Usage: pandoc PAGE.md --lua-filter book/lang.lua -M lang=en   (or lang=zh)

  * Divs and Spans with a `lang` attribute other than the chosen one are
    dropped; those of the chosen language are unwrapped, except one with
    classes or an id (an aside, `::: {.aside lang=en}`), which stays.
  * The document's `lang` metadata becomes `en` or `zh-CN`, and its page
    title comes from the `title-en` / `title-zh` metadata fields.
  * Code blocks of class `nwcode` are syntax-highlighted as C, and their
    placeholders NWUSE<i>Q become links `⟨name⟩` to the used chunks.
  * For EPUB (one book from all pages) the navigation bars are dropped,
    the book title is used, and links `PAGE.html#id` become `#id`, which
    pandoc then points at the right file inside the EPUB.  Divs and Spans
    of class `htmlonly` are dropped from the EPUB.
  * Headings get ids shared by both languages: a heading of a Chinese
    passage takes the id of the heading at the same position in the
    English passage right before it (pandoc derives that one from the
    English text), so ../zh/PAGE.html#ID is the place of ../en/PAGE.html#ID.
  * Math: a run of two or more letters (an identifier such as numel), and
    \mathit{word} or \mathrm{word}, become \text{word}: one upright word,
    not a product of italic letters set apart.  Write a product of
    one-letter variables with spaces: $2 n k m$.
  * Chinese: a line break or space next to full-width punctuation (，。：)
    is dropped, so that "，" ending a line and `code` starting the next do
    not render as "， code".
  * Pages whose metadata says `pagetoc: true` get a table of contents of
    their h2 and h3 headings after the h1 (HTML only: an EPUB has its own).
]]

local lang = 'en'
local is_epub = FORMAT:match('epub') ~= nil

-- "a%20b" -> "a b" (weave.py percent-encodes the `uses` attribute).
local function unquote(s)
  return (s:gsub('%%(%x%x)', function(h) return string.char(tonumber(h, 16)) end))
end

local function html_escape(s)
  return (s:gsub('&', '&amp;'):gsub('<', '&lt;'):gsub('>', '&gt;'):gsub('"', '&quot;'))
end

-- In an EPUB all pages are one document: PAGE.html#id -> #id and
-- PAGE.html -> #page-PAGE (the id weave.py gives each page's heading).
local function fix_target(target)
  if not is_epub or target:match('^%a[%w+.-]*:') then
    return target
  end
  local page, frag = target:match('^([^/#]+)%.html#(.+)$')
  if frag then return '#' .. frag end
  page = target:match('^([^/#]+)%.html$')
  if page then return '#page-' .. page end
  return target
end

-- Pass 1: read the language from the metadata.
local function read_lang(meta)
  if meta.lang then
    lang = pandoc.utils.stringify(meta.lang)
  end
  if lang ~= 'en' and lang ~= 'zh' then
    io.stderr:write('lang.lua: lang must be en or zh, not ' .. lang .. '\n')
    os.exit(1)
  end
end

-- Keep what is in our language, drop the other one.
local function select(el)
  if is_epub and el.classes:includes('htmlonly') then return {} end
  local l = el.attributes.lang
  if l == nil then
    if is_epub and el.t == 'Div' and el.classes:includes('nav') then
      return {}
    end
    return nil
  end
  if l == lang then
    -- A classed div or span (an aside, `::: {.aside lang=en}`) keeps its
    -- box and classes; a plain passage is unwrapped.
    if #el.classes > 0 or el.identifier ~= '' then
      el.attributes.lang = nil
      el.attributes.src = nil    -- the twin's hash, not a link
      return el
    end
    return el.content
  end
  return {}
end

-- Headings shared by both languages (see the top of this file).
local function heading_ids(div)
  local ids = {}
  pandoc.walk_block(div, { Header = function(h)
    table.insert(ids, h.identifier)
  end })
  return ids
end

local function pair_heading_ids(doc)
  local blocks, prev_en = doc.blocks, nil
  for i, b in ipairs(blocks) do
    if b.t == 'Div' and b.attributes.lang == 'en' then
      prev_en = b
    elseif b.t == 'Div' and b.attributes.lang == 'zh' and prev_en then
      local ids, k = heading_ids(prev_en), 0
      blocks[i] = pandoc.walk_block(b, { Header = function(h)
        k = k + 1
        if ids[k] then h.identifier = ids[k] end
        return h
      end })
      if k ~= #ids then
        io.stderr:write(string.format('lang.lua: a Chinese passage has %d '
          .. 'headings, its English twin %d (first: #%s)\n', k, #ids,
          ids[1] or '?'))
      end
      prev_en = nil
    else
      prev_en = nil
    end
  end
  return doc
end

-- Math: multi-letter words upright, as one word (see the top of this file).
local ARG_CMDS = { text = true, textrm = true, textit = true, textbf = true,
  texttt = true, mbox = true, operatorname = true, begin = true,
  ['end'] = true, mathbf = true, mathsf = true, mathtt = true,
  mathcal = true, mathbb = true, mathfrak = true }
local WORD_CMDS = { mathit = true, mathrm = true }

local function group_end(s, i)   -- s:sub(i, i) == '{'
  local depth, j = 0, i
  while j <= #s do
    local c = s:sub(j, j)
    if c == '\\' then
      j = j + 2
    else
      if c == '{' then depth = depth + 1
      elseif c == '}' then
        depth = depth - 1
        if depth == 0 then return j end
      end
      j = j + 1
    end
  end
  return #s
end

local function upright_words(tex)
  local out, i = {}, 1
  while i <= #tex do
    local c = tex:sub(i, i)
    if c == '\\' then
      local name = tex:match('^%a+', i + 1)
      if name then
        local j = i + 1 + #name
        local k = tex:match('^%s*()', j)
        if (ARG_CMDS[name] or WORD_CMDS[name]) and tex:sub(k, k) == '{' then
          local e = group_end(tex, k)
          local arg = tex:sub(k + 1, e - 1)
          if WORD_CMDS[name] and arg:match('^[%a\\_]+$')
              and #(arg:gsub('\\_', '_')) > 1 then
            table.insert(out, '\\text{' .. arg .. '}')
          else
            table.insert(out, tex:sub(i, e))
          end
          i = e + 1
        else
          table.insert(out, '\\' .. name)
          i = j
        end
      else
        table.insert(out, tex:sub(i, i + 1))
        i = i + 2
      end
    elseif c:match('%a') then
      local word = tex:match('^%a+', i)
      local j = i + #word
      while tex:sub(j, j + 1) == '\\_' and tex:sub(j + 2):match('^%w') do
        local more = tex:match('^%w+', j + 2)
        word = word .. '\\_' .. more
        j = j + 2 + #more
      end
      if #word > 1 then
        table.insert(out, '\\text{' .. word .. '}')
      else
        table.insert(out, word)
      end
      i = j
    else
      table.insert(out, c)
      i = i + 1
    end
  end
  return table.concat(out)
end

local function math(el)
  el.text = upright_words(el.text)
  return el
end

-- The page's own table of contents, after its h1 (see the top).
local TOC_TITLE = { en = 'On this page', zh = '本页内容' }

local function no_links(inlines)
  return pandoc.walk_inline(pandoc.Span(inlines), {
    Link = function(l) return l.content end,
    Note = function() return {} end,
  }).content
end

local function pagetoc(doc)
  if is_epub or not doc.meta.pagetoc then return nil end
  local items, first_h1 = {}, nil
  for i, b in ipairs(doc.blocks) do
    if b.t == 'Header' and b.level == 1 and not first_h1 then
      first_h1 = i
    elseif b.t == 'Header' and b.identifier ~= '' and first_h1 then
      local link = pandoc.Plain({ pandoc.Link(no_links(b.content),
        '#' .. b.identifier) })
      if b.level == 2 then
        table.insert(items, { link, sub = {} })
      elseif b.level == 3 and #items > 0 then
        table.insert(items[#items].sub, { link })
      end
    end
  end
  if not first_h1 or #items < 2 then return nil end
  local list = {}
  for _, it in ipairs(items) do
    local item = { it[1] }
    if #it.sub > 0 then table.insert(item, pandoc.BulletList(it.sub)) end
    table.insert(list, item)
  end
  local toc = pandoc.Div({
    pandoc.Para({ pandoc.Strong({ pandoc.Str(TOC_TITLE[lang]) }) }),
    pandoc.BulletList(list) }, pandoc.Attr('pagetoc', { 'pagetoc' }))
  table.insert(doc.blocks, first_h1 + 1, toc)
  return doc
end

-- A noweb code chunk: highlight it with pandoc's own HTML writer, then cut
-- the HTML at each placeholder and put a real Link there, so that pandoc
-- still sees (and for EPUB, fixes) the links.
local function nwcode(block)
  if not block.classes:includes('nwcode') then return nil end
  local uses = {}
  for item in (block.attributes.uses or ''):gmatch('[^;]+') do
    local href, name = item:match('^(.-)|(.*)$')
    table.insert(uses, { href = fix_target(unquote(href)), name = unquote(name) })
  end
  local plain = pandoc.CodeBlock(block.text,
    pandoc.Attr(block.identifier, { 'c' }, {}))
  local html = pandoc.write(pandoc.Pandoc({ plain }), 'html')

  local inlines = {}
  local pos = 1
  for s, i, e in html:gmatch('()NWUSE(%d+)Q()') do
    table.insert(inlines, pandoc.RawInline('html', html:sub(pos, s - 1)))
    local use = uses[tonumber(i) + 1]
    local shown = pandoc.RawInline('html', '⟨' .. html_escape(use.name) .. '⟩')
    if use.href ~= '' then
      table.insert(inlines, pandoc.Link({ shown }, use.href, '',
        pandoc.Attr('', { 'nwuse' })))
    else
      table.insert(inlines, shown)   -- used but never defined
    end
    pos = e
  end
  table.insert(inlines, pandoc.RawInline('html', html:sub(pos)))
  return pandoc.Plain(inlines)
end

local function link(el)
  el.target = fix_target(el.target)
  return el
end

-- Last pass: language and title metadata.
local function set_meta(meta)
  meta.lang = pandoc.MetaString(lang == 'zh' and 'zh-CN' or 'en')
  if is_epub then
    meta.title = meta['book-title-' .. lang]
  else
    local t = meta['title-' .. lang]
    if t then meta.pagetitle = pandoc.utils.stringify(t) end
  end
  return meta
end

-- Chinese: a line break right after full-width punctuation is no space.
-- pandoc's east_asian_line_breaks drops a break between two wide
-- characters only, so "，" at the end of a line and `code` at the start of
-- the next rendered as "， code"; the punctuation carries its own space.
local FULLWIDTH_PUNCT = {}
for _, p in ipairs({ '，', '。', '、', '：', '；', '！', '？', '（', '）', '“', '”', '‘', '’', '《', '》' }) do
  FULLWIDTH_PUNCT[p] = true
end

local function ends_in_fullwidth_punct(el)
  return el ~= nil and el.t == 'Str' and #el.text >= 3 and FULLWIDTH_PUNCT[el.text:sub(-3)]
end

local function starts_with_fullwidth_punct(el)
  return el ~= nil and el.t == 'Str' and #el.text >= 3 and FULLWIDTH_PUNCT[el.text:sub(1, 3)]
end

local function tight_cjk_breaks(inlines)
  if lang ~= 'zh' then return nil end
  local out = pandoc.List()
  for i, el in ipairs(inlines) do
    if (el.t == 'SoftBreak' or el.t == 'Space') and
       (ends_in_fullwidth_punct(inlines[i - 1]) or starts_with_fullwidth_punct(inlines[i + 1])) then
      -- dropped
    else
      out:insert(el)
    end
  end
  return out
end

return {
  { Meta = read_lang },
  { Pandoc = pair_heading_ids },
  { Div = select, Span = select },
  { CodeBlock = nwcode, Link = link, Math = math },
  { Inlines = tight_cjk_breaks },
  { Pandoc = pagetoc },
  { Meta = set_meta },
}
