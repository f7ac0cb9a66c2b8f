export * from './template.constants.ts';
