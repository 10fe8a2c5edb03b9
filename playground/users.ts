/** The playground's two fake end users of the fake agency, and its fake session cookie. */
export interface PlaygroundUser {
  externalUserId: string;
  name: string;
  email: string;
}

/** The end users one can sign in as. */
export const playgroundUsers: readonly PlaygroundUser[] = [
  { externalUserId: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' },
  { externalUserId: 'grace', name: 'Grace Hopper', email: 'grace@example.com' },
];

/**
 * The fake agency's plans: Grace is on a free plan of 3 builds a day, so the usage meter and the over-limit
 * message can be seen in one click; Ada has no limit.
 */
export function playgroundQuota(user: { externalUserId: string }): { generations: number; per: 'day' } | undefined {
  return user.externalUserId === 'grace' ? { generations: 3, per: 'day' } : undefined;
}

/** Name of the cookie that holds the signed-in user's id. */
export const sessionCookie = 'playground_user';

/** The cookie value of a visitor who chose to be signed out. */
export const signedOutValue = 'nobody';

/**
 * The signed-in user of a Cookie header: the first fake user on a first visit (no cookie), so the
 * playground opens on the product; null only after choosing "nobody".
 */
export function userFromCookie(cookieHeader: string | null | undefined): PlaygroundUser | null {
  const id = cookieHeader
    ?.split(';')
    .map((part) => part.trim().split('='))
    .find(([name]) => name === sessionCookie)?.[1];
  if (id === undefined || id === '') return playgroundUsers[0] ?? null;
  return playgroundUsers.find((user) => user.externalUserId === id) ?? null;
}
