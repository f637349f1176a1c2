import { describe, expect, it } from 'vitest';
import { listSignupEndpoint, signupCode } from './embed-code';

const list = { id: '00000000-0000-4000-a100-000000000001', name: 'News <& "updates">' };

describe('signupCode', () => {
  it('posts a plain form to the list endpoint with email, name and the _gotcha honeypot', () => {
    const code = signupCode('html', 'https://api.example.com/', list);
    expect(code).toContain(
      `<form action="https://api.example.com/functions/v1/newsletter/lists/${list.id}" method="POST">`,
    );
    expect(code).toContain('name="email" required');
    expect(code).toContain('name="name"');
    expect(code).toContain('name="_gotcha"');
    // The list's name is escaped in the comment that names it.
    expect(code).toContain('News &lt;&amp; &quot;updates&quot;&gt;');
    expect(code).not.toContain('<script');
  });

  it('sends JSON with fetch in the other variant', () => {
    const code = signupCode('fetch', 'https://api.example.com', list);
    expect(code).toContain(
      `fetch("https://api.example.com/functions/v1/newsletter/lists/${list.id}"`,
    );
    expect(code).toContain("'Content-Type': 'application/json'");
    expect(code).toContain('JSON.stringify({ email:');
    expect(code).toContain("if (data.get('_gotcha')) return;");
  });

  it('builds the endpoint from the API address', () => {
    expect(listSignupEndpoint('http://127.0.0.1:54321', 'abc')).toBe(
      'http://127.0.0.1:54321/functions/v1/newsletter/lists/abc',
    );
  });
});
