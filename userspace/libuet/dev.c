// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * uet devices as the RDMA core's sysfs shows them: a uet device's node
 * description is "uet" (drivers/uet/main.c).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "uet/libuet.h"

#define SYSFS_IB "/sys/class/infiniband"

/* Read the first line of SYSFS_IB/@dev/@attr into @buf, without newline. */
static int read_attr(const char *dev, const char *attr, char *buf, size_t len)
{
	char path[512];
	FILE *f;
	int err = 0;

	snprintf(path, sizeof(path), SYSFS_IB "/%s/%s", dev, attr);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f))
		err = ferror(f) ? -EIO : -ENODATA;
	fclose(f);
	if (!err)
		buf[strcspn(buf, "\n")] = '\0';
	return err;
}

/* "4: ACTIVE" -> "ACTIVE" */
static void port_state(const char *dev, char *buf, size_t len)
{
	char line[32];
	const char *s;

	if (read_attr(dev, "ports/1/state", line, sizeof(line))) {
		snprintf(buf, len, "unknown");
		return;
	}
	s = strchr(line, ' ');
	snprintf(buf, len, "%s", s ? s + 1 : line);
}

int uet_dev_list(struct uet_dev_info *devs, size_t max)
{
	struct dirent *de;
	char desc[80];
	DIR *d;
	int n = 0;

	d = opendir(SYSFS_IB);
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((de = readdir(d))) {
		struct uet_dev_info *info;

		if (de->d_name[0] == '.' ||
		    strlen(de->d_name) >= sizeof(info->name) ||
		    read_attr(de->d_name, "node_desc", desc, sizeof(desc)) ||
		    strcmp(desc, "uet"))
			continue;
		if ((size_t)n < max) {
			info = &devs[n];
			memset(info, 0, sizeof(*info));
			strcpy(info->name, de->d_name);
			if (read_attr(de->d_name, "ports/1/gid_attrs/ndevs/0",
				      info->netdev, sizeof(info->netdev)))
				snprintf(info->netdev, sizeof(info->netdev), "-");
			if (read_attr(de->d_name, "node_guid", info->node_guid,
				      sizeof(info->node_guid)))
				snprintf(info->node_guid, sizeof(info->node_guid), "-");
			port_state(de->d_name, info->state, sizeof(info->state));
		}
		n++;
	}
	closedir(d);
	return n;
}
