import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isResponseSerializationError } from 'fastify-type-provider-zod';
import { MeResponseSchema } from '@portale/shared/auth';
import {
  frozenAnswer,
  parsesAsItEncodes,
  responseSerializerCompiler,
} from '../src/lib/response-serialization.ts';

const compile = (schema: z.ZodType) =>
  responseSerializerCompiler({ schema, method: 'GET', url: '/test', httpStatus: '200' } as never) as (
    data: unknown,
  ) => string;

type Tree = { name: string; children: Tree[] };
const TreeSchema: z.ZodType<Tree> = z.lazy(() =>
  z.object({ name: z.string(), children: z.array(TreeSchema) }),
);

describe('parsesAsItEncodes', () => {
  it.each([
    ['an object of primitives, arrays, enums and nullables', MeResponseSchema],
    [
      'a union and a discriminated union',
      z.union([z.object({ a: z.string() }), z.discriminatedUnion('k', [z.object({ k: z.literal('x') })])]),
    ],
    [
      'a record, a tuple and an intersection',
      z.object({
        r: z.record(z.string(), z.number()),
        t: z.tuple([z.string()], z.number()),
        i: z.intersection(z.object({ a: z.string() }), z.object({ b: z.string() })),
      }),
    ],
    ['a recursive schema', TreeSchema],
    ['a refinement', z.object({ n: z.number().refine((n) => n > 0) })],
  ])('is true for %s', (_label, schema) => {
    expect(parsesAsItEncodes(schema)).toBe(true);
  });

  it.each([
    ['a transform', z.object({ a: z.string().transform((s) => s.length) })],
    ['a default', z.object({ a: z.array(z.string().default('x')) })],
    [
      'a codec',
      z.object({
        at: z.codec(z.iso.datetime(), z.date(), {
          decode: (s) => new Date(s),
          encode: (d) => d.toISOString(),
        }),
      }),
    ],
    ['a catch inside a union', z.union([z.string(), z.object({ a: z.number().catch(0) })])],
  ])('is false for %s', (_label, schema) => {
    expect(parsesAsItEncodes(schema)).toBe(false);
  });
});

describe('responseSerializerCompiler', () => {
  const me = {
    user: {
      id: 7,
      email: 'a@b.it',
      firstName: 'Anna',
      lastName: 'Rossi',
      roles: ['sylla'],
      permissions: [],
      scope: ['sylla'],
      emailVerified: true,
      phoneVerified: false,
      mustChangePassword: false,
      mustSignPrincipalDocument: false,
      lastLoginAt: null,
    },
  };

  it('writes what encoding writes, without the fields the contract does not declare', () => {
    const serialize = compile(MeResponseSchema);
    const withExtras = { ...me, secret: 'x', user: { ...me.user, passwordHash: 'h', status: 'active' } };
    expect(serialize(withExtras)).toBe(JSON.stringify(z.encode(MeResponseSchema, withExtras as never)));
    expect(JSON.parse(serialize(withExtras))).toEqual(me);
  });

  it('refuses an answer that does not match its contract', () => {
    const serialize = compile(MeResponseSchema);
    let error: unknown;
    try {
      serialize({ user: { ...me.user, id: 'seven' } });
    } catch (caught) {
      error = caught;
    }
    expect(isResponseSerializationError(error)).toBe(true);
  });

  it('encodes a schema whose two directions differ, as before', () => {
    const schema = z.object({
      at: z.codec(z.iso.datetime(), z.date(), { decode: (s) => new Date(s), encode: (d) => d.toISOString() }),
    });
    expect(compile(schema)({ at: new Date('2026-11-24T10:00:00.000Z') })).toBe(
      '{"at":"2026-11-24T10:00:00.000Z"}',
    );
  });

  describe('a kept answer (frozenAnswer)', () => {
    /** A contract whose check counts how often it runs. */
    const counted = () => {
      const state = { checks: 0 };
      const schema = z.object({
        user: z.object({ name: z.string().refine(() => ++state.checks > 0), roles: z.array(z.string()) }),
      });
      return { state, serialize: compile(schema) };
    };

    it('is checked and written once, then sent as the same text', () => {
      const { state, serialize } = counted();
      const answer = frozenAnswer({ user: { name: 'Anna', roles: ['sylla'], secret: 'x' } });
      const first = serialize(answer);
      expect(serialize(answer)).toBe(first);
      expect(first).toBe('{"user":{"name":"Anna","roles":["sylla"]}}');
      expect(state.checks).toBe(1);
    });

    it('is a frozen deep copy: neither it nor what it was made from can change what is sent', () => {
      const source = { user: { name: 'Anna', roles: ['sylla'] } };
      const answer = frozenAnswer(source);
      source.user.roles.push('cromos');
      expect(answer.user.roles).toEqual(['sylla']);
      expect(Object.isFrozen(answer.user) && Object.isFrozen(answer.user.roles)).toBe(true);
      expect(() => (answer.user.roles as string[]).push('cromos')).toThrow(TypeError);
    });

    it('does not change how answers built for each request are checked: every time', () => {
      const { state, serialize } = counted();
      const answer = { user: { name: 'Anna', roles: [] } };
      serialize(answer);
      serialize(answer);
      expect(state.checks).toBe(2);
    });

    it('is still refused when it does not match its contract, every time', () => {
      const serialize = compile(MeResponseSchema);
      const wrong = frozenAnswer({ user: { ...me.user, id: 'seven' } });
      expect(() => serialize(wrong)).toThrow();
      expect(() => serialize(wrong)).toThrow();
    });

    it('is written per route: the same object on another contract is checked against that one', () => {
      const answer = frozenAnswer({ user: { name: 'Anna', roles: ['sylla'] } });
      expect(counted().serialize(answer)).toBe('{"user":{"name":"Anna","roles":["sylla"]}}');
      expect(compile(z.object({ user: z.object({ name: z.string() }) }))(answer)).toBe(
        '{"user":{"name":"Anna"}}',
      );
    });
  });
});
