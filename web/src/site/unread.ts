import { STREAM_EVENT, UNREAD_CHECK_DELAY_MS, type BoardEvent, type UnreadCount } from '@contest/shared';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { messageApi, messageKeys, messageUrls } from '../api/notices.ts';
import { apiBase } from '../common/http.ts';
import { isDesktopApp } from '../common/storage.ts';
import { scoringFinished } from './tests.ts';

const fetchUnread = () => messageApi.unread();

function isUnreadCount(v: unknown): v is UnreadCount {
  const c = v as UnreadCount | null;
  return typeof c?.person === 'number' && typeof c.system === 'number' && typeof c.total === 'number';
}

/** Puts counts the server sent (a mark-read reply, a stream event) where every reader sees them. */
export function setUnread(client: QueryClient, counts: UnreadCount): void {
  if (isUnreadCount(counts)) client.setQueryData(messageKeys.unread, counts);
}

/** The unread counts for a page that needs them now (the message page). */
export function useUnread(enabled: boolean) {
  return useQuery({ queryKey: messageKeys.unread, queryFn: fetchUnread, enabled });
}

/**
 * The header badge's count (spec §2.2, §4): asked about 2 s after the layout is created when the user is logged in,
 * then kept live by the server's `unread` events. All three counts: the bell opens the tab holding the unread items.
 * The same stream's `board` events (a scoring finished on a question) redraw an open test tab's leaderboard and list.
 * The stream closes when the user is gone or the layout unmounts; reconnecting after a dropped connection is
 * EventSource's own.
 */
export function useUnreadBadge(loggedIn: boolean): UnreadCount {
  const client = useQueryClient();
  const [due, setDue] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setDue(true), UNREAD_CHECK_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);
  const { data } = useQuery({ queryKey: messageKeys.unread, queryFn: fetchUnread, enabled: due && loggedIn });
  const live = due && loggedIn && data !== undefined;

  useEffect(() => {
    // The desktop app signs its calls with a bearer header, which EventSource cannot send.
    if (!live || typeof EventSource === 'undefined' || isDesktopApp()) return;
    const source = new EventSource(`${apiBase()}${messageUrls.stream}`, { withCredentials: true });
    source.addEventListener(STREAM_EVENT.board, (event) => {
      try {
        const { questionId } = JSON.parse((event as MessageEvent<string>).data) as BoardEvent;
        if (Number.isInteger(questionId)) void scoringFinished(client, questionId);
      } catch {
        // A malformed event changes nothing.
      }
    });
    source.addEventListener(STREAM_EVENT.unread, (event) => {
      let counts: unknown;
      try {
        counts = JSON.parse((event as MessageEvent<string>).data);
      } catch {
        return;
      }
      if (!isUnreadCount(counts)) return;
      const before = client.getQueryData<UnreadCount>(messageKeys.unread);
      client.setQueryData(messageKeys.unread, counts);
      // A message came or went: an open message page shows it.
      if (before && (before.person !== counts.person || before.system !== counts.system)) void client.invalidateQueries({ queryKey: messageKeys.all });
    });
    return () => source.close();
  }, [live, client]);

  return loggedIn && data ? data : NONE;
}
const NONE: UnreadCount = { person: 0, system: 0, total: 0 };
