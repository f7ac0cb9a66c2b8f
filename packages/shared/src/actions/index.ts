export * from './action.constants.ts';
export * from './actions.schemas.ts';
export * from './actions.endpoints.ts';
