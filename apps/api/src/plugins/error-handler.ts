import type { FastifyError, FastifyInstance, FastifyReply, FastifyServerOptions } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ERROR_MESSAGES, type ApiErrorBody } from '@portale/shared/http';
import { FieldErrors } from '../lib/field-errors.ts';
import { HttpError } from '../lib/http-error.ts';

const STATUS_MESSAGES: Record<number, { code: string; message: string }> = {
  400: { code: 'bad_request', message: 'La richiesta non è valida.' },
  401: { code: 'unauthenticated', message: ERROR_MESSAGES.unauthenticated },
  403: { code: 'forbidden', message: 'Non hai i permessi necessari per questa operazione.' },
  404: { code: 'not_found', message: ERROR_MESSAGES.notFound },
  405: { code: 'method_not_allowed', message: 'Metodo non consentito.' },
  413: { code: 'payload_too_large', message: 'I dati inviati sono troppo grandi.' },
  415: { code: 'unsupported_media_type', message: ERROR_MESSAGES.unsupportedMediaType },
  429: { code: 'rate_limited', message: ERROR_MESSAGES.rateLimited },
};

function fieldErrors(
  issues: { instancePath?: string; message?: string; params?: { issue?: { path?: PropertyKey[] } } }[],
) {
  const errors: Record<string, string[]> = {};
  for (const issue of issues) {
    const path =
      issue.params?.issue?.path?.map(String).join('.') ||
      issue.instancePath?.replace(/^\//, '').replace(/\//g, '.') ||
      '_';
    (errors[path] ??= []).push(issue.message ?? 'Valore non valido.');
  }
  return errors;
}

/**
 * Errors Fastify raises before routing (a URL it cannot decode, a path segment over `maxParamLength`),
 * which the error handler never sees: the same one shape, without echoing the URL or Fastify's codes.
 * A segment too long to be an id names no record (404, as an invalid id does).
 */
export const frameworkErrors: NonNullable<FastifyServerOptions['frameworkErrors']> = (
  error,
  request,
  reply,
) => {
  let body: ApiErrorBody;
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH')
    body = { statusCode: 404, code: 'not_found', message: ERROR_MESSAGES.notFound };
  else if (error.code === 'FST_ERR_BAD_URL') body = { statusCode: 400, ...STATUS_MESSAGES[400]! };
  else {
    request.log.error({ err: error }, 'unhandled framework error');
    body = { statusCode: 500, code: 'internal_error', message: ERROR_MESSAGES.internal };
  }
  void (reply as unknown as FastifyReply)
    .status(body.statusCode)
    .header('cache-control', 'no-store')
    .send(body);
};

/** One error shape: Italian message, stable code, per-field errors on 422; no internals on 5xx. */
export const errorHandler = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    let body: ApiErrorBody;
    if (error instanceof HttpError) {
      body = { statusCode: error.statusCode, code: error.code, message: error.message };
      if (error instanceof FieldErrors) body.errors = error.errors;
      reply.headers(error.headers);
    } else if (hasZodFastifySchemaValidationErrors(error) && error.validationContext === 'params') {
      // A path param that is not a valid id names no record (architecture §0): 404, never 422 or 500.
      body = { statusCode: 404, code: 'not_found', message: ERROR_MESSAGES.notFound };
    } else if (hasZodFastifySchemaValidationErrors(error)) {
      body = {
        statusCode: 422,
        code: 'validation_failed',
        message: ERROR_MESSAGES.validation,
        errors: fieldErrors(error.validation as never),
      };
    } else if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      const known = STATUS_MESSAGES[error.statusCode] ?? {
        code: 'bad_request',
        message: 'La richiesta non è valida.',
      };
      body = { statusCode: error.statusCode, ...known };
    } else {
      request.log.error({ err: error }, 'unhandled error');
      body = { statusCode: 500, code: 'internal_error', message: ERROR_MESSAGES.internal };
    }
    if (body.statusCode >= 400 && body.statusCode < 500 && body.statusCode !== 404) {
      request.log.info({ code: body.code, statusCode: body.statusCode }, 'request refused');
    }
    return reply.status(body.statusCode).send(body);
  });
  app.setNotFoundHandler((_request, reply) =>
    reply.status(404).send({ statusCode: 404, code: 'not_found', message: ERROR_MESSAGES.notFound }),
  );
});
