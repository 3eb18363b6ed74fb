/** Reads server-sent events from a real HTTP stream response. */
export function streamEvents(res: Response, controller: AbortController) {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  /** The next event: its name and parsed `data:` payload (comments such as the keep-alive are skipped). */
  async function event(): Promise<{ event: string; data: unknown }> {
    for (;;) {
      const end = buffer.indexOf('\n\n');
      if (end >= 0) {
        const lines = buffer.slice(0, end).split('\n');
        buffer = buffer.slice(end + 2);
        const data = lines.find((l) => l.startsWith('data: '));
        if (data) return { event: lines.find((l) => l.startsWith('event: '))?.slice(7) ?? 'message', data: JSON.parse(data.slice(6)) };
        continue;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error('stream ended');
      buffer += decoder.decode(value, { stream: true });
    }
  }
  return {
    event,
    /** The next unread counts, passing over other events. */
    async next(): Promise<{ person: number; system: number; total: number }> {
      for (;;) {
        const e = await event();
        if (e.event === 'unread') return e.data as { person: number; system: number; total: number };
      }
    },
    close: () => controller.abort(),
  };
}
