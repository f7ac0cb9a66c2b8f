import { describe, expect, it } from 'vitest';
import { hasScope } from './scope.ts';

describe('hasScope', () => {
  it('matches an array entry exactly', () => {
    expect(hasScope(['super-admin', 'user.index'], 'user.index')).toBe(true);
    expect(hasScope(['super-admin'], 'super')).toBe(false);
    expect(hasScope([], 'super-admin')).toBe(false);
  });

  it('reads an object by key, truthy values only', () => {
    expect(hasScope({ admin: true }, 'admin')).toBe(true);
    expect(hasScope({ admin: false, other: 0 }, 'admin')).toBe(false);
    expect(hasScope({ admin: false, other: 0 }, 'other')).toBe(false);
  });

  it('follows dot paths in an object', () => {
    expect(hasScope({ orders: { read: 1 } }, 'orders.read')).toBe(true);
    expect(hasScope({ orders: { read: 0 } }, 'orders.read')).toBe(false);
    expect(hasScope({ orders: {} }, 'orders.write')).toBe(false);
    expect(hasScope({ 'user.index': true }, 'user.index')).toBe(true);
  });

  it('never grants inherited object properties', () => {
    expect(hasScope({}, 'toString')).toBe(false);
    expect(hasScope({}, 'constructor')).toBe(false);
    expect(hasScope({ orders: {} }, 'orders.constructor')).toBe(false);
    expect(hasScope({}, '__proto__')).toBe(false);
  });

  it('reads a string as a space-separated list, never as every scope', () => {
    expect(hasScope('admin', 'admin')).toBe(true);
    expect(hasScope('sylla  user.index', 'user.index')).toBe(true);
    expect(hasScope('admin', 'anything')).toBe(false);
    expect(hasScope('admin', 'adm')).toBe(false);
    expect(hasScope('{"admin":true}', 'admin')).toBe(false);
  });

  it('is false for a missing or empty scope', () => {
    expect(hasScope(null, 'admin')).toBe(false);
    expect(hasScope(undefined, 'admin')).toBe(false);
    expect(hasScope('', 'admin')).toBe(false);
  });
});
