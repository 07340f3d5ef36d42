// Change events of one match. EventSource cannot send an Authorization header, so a private
// match is followed with a streaming fetch that parses the same text/event-stream. Like every
// request to the API, both name the app's language (EventSource by ?lang=, it sends no headers).
import { authHeaders } from './api.js';
import { language } from './i18n.js';
import { readToken } from './store.js';

const RETRY_MS = 2000;

export function follow(id, isPrivate, onChange) {
  return followEvents(`/api/v1/matches/${encodeURIComponent(id)}/events`, isPrivate ? readToken(id) : null,
    onChange);
}

/** Any event stream of the API (a match's, a tournament's); a token makes it a streaming fetch. */
export function followEvents(url, token, onChange) {
  if (!token && typeof EventSource === 'function') {
    const source = new EventSource(`${url}?lang=${language()}`);
    source.addEventListener('change', (event) => onChange(parse(event.data)));
    return () => source.close();
  }
  const abort = new AbortController();
  streamEvents(url, token, abort.signal, onChange);
  return () => abort.abort();
}

function parse(data) {
  try { return JSON.parse(data); } catch { return {}; }
}

async function streamEvents(url, token, signal, onChange) {
  while (!signal.aborted) {
    try {
      const response = await fetch(url, { headers: { Accept: 'text/event-stream',
        'Accept-Language': language(), ...authHeaders(token) }, signal });
      if (!response.ok || !response.body) throw new Error(String(response.status));
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        const blocks = buffer.split(/\r?\n\r?\n/);
        buffer = blocks.pop();
        for (const block of blocks) dispatch(block, onChange);
      }
    } catch {
      if (signal.aborted) return;
    }
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  }
}

function dispatch(block, onChange) {
  let type = 'message';
  const data = [];
  for (const line of block.split(/\r?\n/)) {
    if (line.startsWith('event:')) type = line.slice(6).trim();
    else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
  }
  if (type === 'change') onChange(parse(data.join('\n')));
}
