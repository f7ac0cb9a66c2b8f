export * from './list-query.ts';
export * from './search.ts';
