export * from './substitution.constants.ts';
