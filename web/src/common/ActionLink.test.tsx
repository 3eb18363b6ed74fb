// @vitest-environment happy-dom
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ActionLink } from './ActionLink.tsx';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? sources(file) : /\.tsx$/.test(name) && !/\.test\.tsx$/.test(name) ? [file] : [];
  });

describe('actions that read as links', () => {
  afterEach(cleanup);

  it('are buttons the keyboard reaches and presses', () => {
    const onClick = vi.fn();
    render(<ActionLink onClick={onClick}>编辑</ActionLink>);
    const action = screen.getByRole('button', { name: '编辑' });
    expect(action.tagName).toBe('BUTTON');
    action.focus();
    expect(document.activeElement).toBe(action);
    fireEvent.click(action);
    expect(onClick).toHaveBeenCalledTimes(1);
  });

  it('are never an <a> without href anywhere in the web (the keyboard cannot reach one)', () => {
    const files = sources(SRC);
    expect(files.length).toBeGreaterThan(100);
    const found: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      // Every opening <a …> tag, up to its closing bracket (attributes may span lines and hold arrows' `=>`).
      for (const m of text.matchAll(/<a(\s[\s\S]*?)?>/g)) {
        const tag = m[0];
        if (/^<a(\s|>)/.test(tag) && !/\shref=/.test(tag)) found.push(`${path.relative(SRC, file)}: ${tag.slice(0, 60)}`);
      }
    }
    expect(found).toEqual([]);
  });
});
