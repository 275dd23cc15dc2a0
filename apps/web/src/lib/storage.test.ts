import { describe, expect, it } from 'vitest';
import { clearStorage, getSessionValue, getToken, hasToken, SESSION_KEYS, setSessionValue, setToken } from './storage';

describe('storage', () => {
  it('keeps the token in local storage and the rest in session storage', () => {
    setToken('tok');
    setSessionValue(SESSION_KEYS.email, 'ana@example.com');
    setSessionValue(SESSION_KEYS.activeName, 'dashboard');
    setSessionValue(SESSION_KEYS.activePath, '/pannel');
    expect(localStorage.getItem('token')).toBe('tok');
    expect(sessionStorage.getItem('email')).toBe('ana@example.com');
    expect(sessionStorage.getItem('activeName')).toBe('dashboard');
    expect(sessionStorage.getItem('activePath')).toBe('/pannel');
  });

  it('treats an empty token as none', () => {
    localStorage.setItem('token', '');
    expect(getToken()).toBeNull();
    expect(hasToken()).toBe(false);
  });

  it('clears both storages but keeps the language on screen', () => {
    setToken('tok');
    localStorage.setItem('other', 'x');
    setSessionValue(SESSION_KEYS.email, 'ana@example.com');
    setSessionValue(SESSION_KEYS.language, 'en');
    clearStorage();
    expect(getToken()).toBeNull();
    expect(localStorage.length).toBe(0);
    expect(getSessionValue(SESSION_KEYS.email)).toBeNull();
    expect(getSessionValue(SESSION_KEYS.language)).toBe('en');
  });
});
