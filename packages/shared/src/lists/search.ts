/**
 * Search text as the database stores it in `search_text` columns: lower case, no accents, apostrophes
 * as spaces. The SQL twin is `SEARCH_TRANSLATE_FROM/TO` (translate() is immutable, so it can feed a
 * generated column on PostgreSQL and PGlite alike, with no extension).
 */
export function normaliseSearch(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['’`]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The words of a search, normalised; each must appear in the row (AND). */
export function searchWords(text: string | undefined): string[] {
  if (!text) return [];
  return [...new Set(normaliseSearch(text).split(' ').filter(Boolean))].slice(0, 8);
}

export const SEARCH_TRANSLATE_FROM = "ÀÁÂÃÄÈÉÊËÌÍÎÏÒÓÔÕÖÙÚÛÜÇÑàáâãäèéêëìíîïòóôõöùúûüçñ'’`";
export const SEARCH_TRANSLATE_TO = 'aaaaaeeeeiiiiooooouuuucnaaaaaeeeeiiiiooooouuuucn   ';
