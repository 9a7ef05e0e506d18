import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseInline, plainText, safeHref } from './markdown.ts';

test('inline markdown: emphasis, code, links, breaks', () => {
  assert.deepEqual(parseInline('**Head** of _Sales_'), [
    { type: 'strong', children: [{ type: 'text', text: 'Head' }] },
    { type: 'text', text: ' of ' },
    { type: 'em', children: [{ type: 'text', text: 'Sales' }] },
  ]);
  assert.deepEqual(parseInline('see [site](https://example.com/a) or `x*y`'), [
    { type: 'text', text: 'see ' },
    { type: 'link', href: 'https://example.com/a', children: [{ type: 'text', text: 'site' }] },
    { type: 'text', text: ' or ' },
    { type: 'code', text: 'x*y' },
  ]);
  assert.deepEqual(parseInline('a\nb').map((n) => n.type), ['text', 'br', 'text']);
  assert.equal(plainText(parseInline('~~old~~ new_value snake_case 2 * 3 * 4')), 'old new_value snake_case 2 * 3 * 4');
  assert.deepEqual(parseInline('go to https://example.com/x.'), [
    { type: 'text', text: 'go to ' },
    { type: 'link', href: 'https://example.com/x', children: [{ type: 'text', text: 'https://example.com/x' }] },
    { type: 'text', text: '.' },
  ]);
});

test('no unsafe links or markup survive', () => {
  assert.equal(safeHref('javascript:alert(1)'), null);
  assert.equal(safeHref('data:text/html,<script>'), null);
  assert.deepEqual(parseInline('[x](javascript:alert(1))')[0], { type: 'text', text: 'x' });
  assert.deepEqual(parseInline('<img src=x onerror=alert(1)>'), [{ type: 'text', text: '<img src=x onerror=alert(1)>' }]);
});
