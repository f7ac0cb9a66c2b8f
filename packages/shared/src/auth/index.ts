export * from './roles.ts';
export * from './scope.ts';
export * from './token-status.ts';
export * from './session-user.ts';
export * from './permissions.ts';
