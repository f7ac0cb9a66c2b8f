export * from './adhesion.constants.ts';
export * from './adhesion-panel.schemas.ts';
export * from './adhesion-panel.endpoints.ts';
export * from './adhesion-signing.schemas.ts';
export * from './adhesion-signing.endpoints.ts';
