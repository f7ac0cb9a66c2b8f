import { describe, expect, it } from 'vitest';
import { applyPolicy, mergePolicies, MetadataPolicyError } from './metadata-policy.ts';

describe('metadata policy (OpenID Federation 1.0, section 6.1)', () => {
  it('merges the superior first: subset_of and one_of intersect, add and superset_of unite, essential or-ed', () => {
    const merged = mergePolicies([
      {
        scopes: { subset_of: ['openid', 'profile', 'email'], essential: true },
        acr: { one_of: ['L1', 'L2', 'L3'] },
        claims: { add: ['a'] },
      },
      {
        scopes: { subset_of: ['openid', 'profile'] },
        acr: { one_of: ['L2', 'L3'], default: 'L2' },
        claims: { add: ['b'] },
      },
    ]);
    expect(merged).toEqual({
      scopes: { subset_of: ['openid', 'profile'], essential: true },
      acr: { one_of: ['L2', 'L3'], default: 'L2' },
      claims: { add: ['a', 'b'] },
    });
  });

  it('refuses policies that cannot be merged', () => {
    expect(() => mergePolicies([{ alg: { value: 'RS256' } }, { alg: { value: 'ES256' } }])).toThrow(
      MetadataPolicyError,
    );
    expect(() => mergePolicies([{ alg: { one_of: ['RS256'] } }, { alg: { one_of: ['ES256'] } }])).toThrow(
      MetadataPolicyError,
    );
    expect(() => mergePolicies([{ alg: { value: 'PS256', one_of: ['RS256'] } }])).toThrow(
      MetadataPolicyError,
    );
  });

  it('applies value, add, default, subset_of, one_of, superset_of and essential', () => {
    const out = applyPolicy(
      {
        token_endpoint_auth_methods_supported: ['private_key_jwt', 'client_secret_basic'],
        grant_types_supported: ['authorization_code'],
        request_parameter_supported: true,
        logo_uri: 'https://op/logo.svg',
        scopes_supported: ['openid', 'profile'],
      },
      {
        token_endpoint_auth_methods_supported: { subset_of: ['private_key_jwt'], essential: true },
        grant_types_supported: { add: ['refresh_token'] },
        claims_parameter_supported: { default: true },
        request_parameter_supported: { one_of: [true] },
        logo_uri: { value: null },
        organization_name: { value: 'CIE' },
        scopes_supported: { superset_of: ['openid'] },
      },
    );
    expect(out).toEqual({
      token_endpoint_auth_methods_supported: ['private_key_jwt'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      claims_parameter_supported: true,
      request_parameter_supported: true,
      organization_name: 'CIE',
      scopes_supported: ['openid', 'profile'],
    });
  });

  it('refuses metadata that does not comply', () => {
    expect(() => applyPolicy({ a: 'x' }, { a: { one_of: ['y'] } })).toThrow(/not one of/);
    expect(() => applyPolicy({}, { a: { essential: true } })).toThrow(/essential/);
    expect(() =>
      applyPolicy({ a: ['client_secret_basic'] }, { a: { subset_of: ['private_key_jwt'], essential: true } }),
    ).toThrow(/essential/);
    expect(() => applyPolicy({ a: ['openid'] }, { a: { superset_of: ['openid', 'profile'] } })).toThrow(
      /misses/,
    );
  });
});
