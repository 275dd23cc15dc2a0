import { describe, expect, it } from 'vitest';
import { filterByTitle } from './search-guides';

const items = ['Cliente oficial para Android', 'Clash para Windows', 'Configuração rápida'];

describe('filterByTitle', () => {
  it('keeps the titles that contain the query, ignoring case, accents and outer spaces', () => {
    expect(filterByTitle(items, '  ANDROID ', (item) => item)).toEqual(['Cliente oficial para Android']);
    expect(filterByTitle(items, 'configuracao', (item) => item)).toEqual(['Configuração rápida']);
    expect(filterByTitle(items, 'rápida', (item) => item)).toEqual(['Configuração rápida']);
  });

  it('keeps everything for an empty query', () => {
    expect(filterByTitle(items, '   ', (item) => item)).toEqual(items);
  });
});
