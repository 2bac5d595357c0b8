// SPDX-License-Identifier: GPL-2.0-or-later
/* The list_lru lock scopes a scenario may choose (memcg.list_lru_scope), one
 * file each: list_lru_scope_node.c, list_lru_scope_memcg.c. */
#include "list_lru.h"

/* The registry: one line per lock scope. */
#define LIST_LRU_SCOPES(X)                                                                         \
	X(node)                                                                                    \
	X(memcg)

#define DECLARE(name) extern const struct list_lru_scope_ops list_lru_scope_##name;
#define ENTRY(name) &list_lru_scope_##name.named,
LIST_LRU_SCOPES(DECLARE)
const struct mcs_named *const list_lru_scopes[] = {LIST_LRU_SCOPES(ENTRY) NULL};

const struct list_lru_scope_ops *list_lru_scope_find(const char *name)
{
	return (const struct list_lru_scope_ops *)mcs_named_find(list_lru_scopes, name);
}
