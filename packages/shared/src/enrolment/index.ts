export * from './enrolment.schemas.ts';
export * from './enrolment.endpoints.ts';
