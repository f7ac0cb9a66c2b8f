export * from './guards.ts';
export * from './routes.ts';
export * from './return-path.ts';
export * from './token.ts';
export * from './access.ts';
