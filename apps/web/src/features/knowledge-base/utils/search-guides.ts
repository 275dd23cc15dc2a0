/** Lower case without accents, so that "android" finds "Android" and "oficial" finds "Oficial". */
function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase();
}

/** The items whose title contains the query (ignoring case, accents and surrounding spaces); all for an empty query. */
export function filterByTitle<T>(items: readonly T[], query: string, titleOf: (item: T) => string): T[] {
  const wanted = fold(query.trim());
  if (wanted === '') return [...items];
  return items.filter((item) => fold(titleOf(item)).includes(wanted));
}
