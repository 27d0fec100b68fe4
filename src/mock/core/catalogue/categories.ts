/**
 * The interface shows only `categoryId`, not what a category is. These ids
 * stand for the kinds faker knows, so a generated pet's name fits its kind;
 * every generated animal (a seeded catalogue, `Prefer: dynamic=true`) takes
 * its category from here.
 */
export const CATEGORIES = [
  { id: 1, kind: 'dog' },
  { id: 2, kind: 'cat' },
  { id: 3, kind: 'bird' },
  { id: 4, kind: 'fish' },
  { id: 5, kind: 'rabbit' },
  { id: 6, kind: 'horse' },
] as const;
