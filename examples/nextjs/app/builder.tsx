'use client';
/**
 * The client wrapper of the embed: everything that is a function (callbacks, function labels) is created
 * here, on the client side, because a Server Component cannot pass functions to a client component.
 */
import { AgentBuilder, AgentProvider } from 'agent-embed';
import type { AgentApiError } from 'agent-embed/core';

/** Props the Server Component page passes: plain, serialisable values only. */
export interface BuilderProps {
  userId: string;
  userName?: string;
  promptLabel: string;
}

/** The builder with the agency's callbacks, talking to the proxy at /api/agent. */
export function Builder({ userId, userName, promptLabel }: BuilderProps) {
  return (
    <AgentProvider
      baseUrl="/api/agent"
      externalUser={userName === undefined ? { id: userId } : { id: userId, name: userName }}
      labels={{ generatePanel: { promptLabel } }}
      // The API's own message, for the agency's logs; end users see the components' own words.
      onError={(error: AgentApiError) => console.error('agent-embed', error.kind, error.message)}
    >
      <AgentBuilder onBuyCredits={() => window.location.assign('/billing')} />
    </AgentProvider>
  );
}
