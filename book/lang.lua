--[[ lang.lua: keep one language of a bilingual page woven by weave.py.

Usage: pandoc PAGE.md --lua-filter book/lang.lua -M lang=en   (or lang=zh)

  * Divs and Spans with a `lang` attribute other than the chosen one are
    dropped; those of the chosen language are unwrapped, except a Div with
    classes (an aside, `::: {.aside lang=en}`), which stays a div.
  * The document's `lang` metadata becomes `en` or `zh-CN`, and its page
    title comes from the `title-en` / `title-zh` metadata fields.
  * Code blocks of class `nwcode` are syntax-highlighted as C, and their
    placeholders NWUSE<i>Q become links `⟨name⟩` to the used chunks.
  * For EPUB (one book from all pages) the navigation bars are dropped,
    the book title is used, and links `PAGE.html#id` become `#id`, which
    pandoc then points at the right file inside the EPUB.
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
  local l = el.attributes.lang
  if l == nil then
    if is_epub and el.t == 'Div' and el.classes:includes('nav') then
      return {}
    end
    return nil
  end
  if l == lang then
    -- A classed div (`::: {.aside lang=en}`) keeps its box and classes;
    -- a plain passage is unwrapped.
    if el.t == 'Div' and #el.classes > 0 then
      el.attributes.lang = nil
      el.attributes.src = nil    -- the twin's hash, not a link
      return el
    end
    return el.content
  end
  return {}
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

return {
  { Meta = read_lang },
  { Div = select, Span = select },
  { CodeBlock = nwcode, Link = link },
  { Meta = set_meta },
}
