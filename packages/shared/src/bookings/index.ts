export * from './rome-time.ts';
export * from './bookings.schemas.ts';
export * from './bookings.endpoints.ts';
