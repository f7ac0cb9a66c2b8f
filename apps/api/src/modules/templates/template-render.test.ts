import { describe, expect, it } from 'vitest';
import { DEFAULT_TEMPLATES } from './default-templates.ts';
import {
  escapeMarkdown,
  fillPlaceholders,
  placeholdersOf,
  renderMarkdownHtml,
  renderMessage,
  TemplateSyntaxError,
} from '../../lib/render/template-render.ts';

describe('placeholdersOf', () => {
  it('lists plain placeholders once, in order', () => {
    expect(placeholdersOf('Ciao {{firstName}}, {{ link }} e {{firstName}}')).toEqual(['firstName', 'link']);
  });

  it.each([
    '{{#a}}x{{/a}}',
    '{{^a}}x{{/a}}',
    '{{>a}}',
    '{{!nota}}',
    '{{&a}}',
    '{{{a}}}',
    '{{=<% %>=}}',
    'apre {{a',
    '{{a.b}}',
    '{{}}',
  ])('refuses %s with an Italian message', (text) => {
    expect(() => placeholdersOf(text)).toThrow(TemplateSyntaxError);
  });

  it('every default template parses', () => {
    for (const t of DEFAULT_TEMPLATES)
      for (const text of [t.subject, t.htmlBody, t.textBody])
        if (text) expect(() => placeholdersOf(text), t.key).not.toThrow();
  });
});

describe('rendering', () => {
  it('fills raw values in text and throws on a missing value', () => {
    expect(fillPlaceholders('A {{x}} <b>', { x: '<i>&' })).toBe('A <i>& <b>');
    expect(() => fillPlaceholders('A {{x}} {{y}}', { x: 1 })).toThrow(/y/);
  });

  it('escapes values in the default HTML body', () => {
    const html = renderMessage(
      {
        channel: 'email',
        subject: 'S {{n}}',
        htmlBody: '<p>{{n}}</p><a href="{{link}}">x</a>',
        textBody: '{{n}}',
      },
      { n: '<script>"', link: 'https://a.test/x?y=1&z=2' },
    );
    expect(html.html).toContain('<p>&lt;script&gt;&quot;</p>');
    expect(html.html).toContain('href="https://a.test/x?y=1&amp;z=2"');
    expect(html.subject).toBe('S <script>"');
    expect(html.text).toMatch(/^<script>"/);
  });

  it('turns an edited body into HTML through Markdown, never raw HTML', () => {
    const html = renderMarkdownHtml(
      'Gentile **{{n}}**,\n<img src=x onerror=alert(1)>\n[apri]({{link}})\n{{link}}\n![t](https://t.test/p.png)',
      {
        n: '[x](https://evil.test) *a* <b>',
        link: 'https://portale.test/r?token=ab_c',
      },
    );
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<b>');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('<strong>[x](https://evil.test) *a* &lt;b&gt;</strong>');
    expect(html).toContain('<a href="https://portale.test/r?token=ab_c">apri</a>');
    expect(html).toContain(
      '<a href="https://portale.test/r?token=ab_c">https://portale.test/r?token=ab_c</a>',
    );
  });

  it('a javascript: link in the editor is not a link', () => {
    expect(renderMarkdownHtml('[x](javascript:alert(1))', {})).not.toContain('href');
  });

  it('escapeMarkdown keeps the text and makes lines hard breaks', () => {
    expect(escapeMarkdown('# a_b\n\n  1. c')).toBe('\\# a\\_b\\\n1\\. c');
  });
});
