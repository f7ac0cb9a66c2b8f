export * from './action.constants.ts';
