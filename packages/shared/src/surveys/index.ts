export * from './survey.constants.ts';
