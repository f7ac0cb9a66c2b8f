export * from './field-work.constants.ts';
