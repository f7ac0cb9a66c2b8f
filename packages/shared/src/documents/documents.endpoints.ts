import { z } from 'zod';
import { defineEndpoint, defineUploadEndpoint } from '../http/endpoint.ts';
import { ExportFormatSchema } from '../lists/list-query.ts';
import { IdParamSchema } from '../validation/index.ts';
import {
  DocumentCreateQuerySchema,
  DocumentFileQuerySchema,
  DocumentFiltersSchema,
  DocumentListQuerySchema,
  DocumentListResponseSchema,
  DocumentUpdateSchema,
  StaffDocumentSchema,
} from './documents.schemas.ts';

/** Staff management of the documents of `/documentazione` (issue 12); the public reads them from `@portale/shared/public`. */

const DocumentParams = z.object({ documentId: IdParamSchema });

export const listDocuments = defineEndpoint({
  method: 'GET',
  path: '/api/documents',
  permission: 'read:document',
  tag: 'documents',
  summary: 'Tutti i documenti (staff), pubblicati e no: ricerca, filtri, ordinamento e pagine',
  query: DocumentListQuerySchema,
  response: DocumentListResponseSchema,
});

export const exportDocuments = defineEndpoint({
  method: 'GET',
  path: '/api/documents/export',
  permission: 'read:document',
  tag: 'documents',
  summary: 'Esporta l’elenco dei documenti filtrati (CSV o XLSX)',
  query: DocumentFiltersSchema.extend(ExportFormatSchema.shape),
  response: z.string(),
  download: true,
});

const DOCUMENT_UPLOAD_TYPES = ['application/pdf'];

export const createDocument = defineUploadEndpoint({
  method: 'POST',
  path: '/api/documents',
  permission: 'create:document',
  tag: 'documents',
  summary:
    'Carica un nuovo documento PDF (non pubblicato); il corpo è il file (application/pdf, al massimo 20 MB)',
  query: DocumentCreateQuerySchema,
  response: StaffDocumentSchema,
  status: 201,
  upload: { types: DOCUMENT_UPLOAD_TYPES },
  media: { request: DOCUMENT_UPLOAD_TYPES },
});

export const getDocument = defineEndpoint({
  method: 'GET',
  path: '/api/documents/:documentId',
  permission: 'read:document',
  tag: 'documents',
  summary: 'Scheda del documento (staff)',
  params: DocumentParams,
  response: StaffDocumentSchema,
});

export const updateDocument = defineEndpoint({
  method: 'PATCH',
  path: '/api/documents/:documentId',
  permission: 'update:document',
  tag: 'documents',
  summary: 'Modifica titolo, descrizione e categoria; pubblica o ritira il documento',
  params: DocumentParams,
  body: DocumentUpdateSchema,
  response: StaffDocumentSchema,
});

export const replaceDocumentFile = defineUploadEndpoint({
  method: 'PUT',
  path: '/api/documents/:documentId/file',
  permission: 'update:document',
  tag: 'documents',
  summary: 'Sostituisce il PDF del documento; il corpo è il file (application/pdf, al massimo 20 MB)',
  params: DocumentParams,
  query: DocumentFileQuerySchema,
  response: StaffDocumentSchema,
  upload: { types: DOCUMENT_UPLOAD_TYPES },
  media: { request: DOCUMENT_UPLOAD_TYPES },
});

export const downloadDocument = defineEndpoint({
  method: 'GET',
  path: '/api/documents/:documentId/file',
  permission: 'read:document',
  tag: 'documents',
  summary: 'Scarica il PDF del documento, anche non pubblicato (staff)',
  params: DocumentParams,
  response: z.string(),
  download: true,
  media: { response: ['application/pdf'] },
});
