export * from './adhesion.constants.ts';
