/** Reads server-sent events from a real HTTP stream response, one `data:` payload (the unread counts) at a time. */
export function unreadEvents(res: Response, controller: AbortController) {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  return {
    async next(): Promise<{ person: number; system: number; total: number }> {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const chunk = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = chunk.split('\n').find((l) => l.startsWith('data: '));
          if (data) return JSON.parse(data.slice(6));
          continue;
        }
        const { value, done } = await reader.read();
        if (done) throw new Error('stream ended');
        buffer += decoder.decode(value, { stream: true });
      }
    },
    close: () => controller.abort(),
  };
}
