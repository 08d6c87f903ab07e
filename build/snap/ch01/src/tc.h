#line 55 "chapters/01-storage.nw"
/* tc.h: the library's whole interface. Include this one file. */
#ifndef TC_H
#define TC_H

#line 65 "chapters/01-storage.nw"
#include "error.h"
#include "storage.h"
#include "tensor.h"

#line 61 "chapters/01-storage.nw"
#endif
