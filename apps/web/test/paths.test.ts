import { describe, expect, it } from 'vitest';
import { safeRedirect, signInPath } from '../src/lib/paths';

describe('redirect after sign-in', () => {
  it.each([
    ['/robot', '/robot'],
    ['/robot?page=2', '/robot?page=2'],
    [null, '/dashboard'],
    ['', '/dashboard'],
    ['/', '/dashboard'],
    ['https://evil.example', '/dashboard'],
    ['//evil.example', '/dashboard'],
    ['/\\evil.example', '/dashboard'],
    ['robot', '/dashboard'],
    ['/login/sign-in', '/dashboard'],
  ])('%s → %s', (value, expected) => {
    expect(safeRedirect(value)).toBe(expected);
  });

  it('adds ?redirect= only when there is somewhere to come back to', () => {
    expect(signInPath('/team?page=3')).toBe('/login/sign-in?redirect=%2Fteam%3Fpage%3D3');
    expect(signInPath('/dashboard')).toBe('/login/sign-in');
    expect(signInPath(undefined)).toBe('/login/sign-in');
  });
});
