// SPDX-License-Identifier: LGPL-2.1-or-later
#include "uet/libuet.h"

const char *uet_version(void)
{
	return LIBUET_VERSION;
}
