import type { SessionUser } from '@portale/shared/auth';
import type { Db } from '../../db/client.ts';

export interface AuthUser extends SessionUser {
  status: 'active' | 'suspended';
}

export interface Authentication {
  user: AuthUser;
  tokenId: number;
  sessionId: number;
  /** The earlier of the token's and the session's end: the authentication holds until then at most. */
  validUntil: Date;
}

/**
 * The token lookup the session plugin runs on a cache miss. It lives in `modules/auth`, and `app.ts`
 * hands it to the plugin, so `plugins/` imports no module.
 */
export interface TokenLookup {
  parseBearer(bearer: string): { id: number; hash: string } | undefined;
  authenticateAccessToken(db: Db, bearer: string, now: Date): Promise<Authentication | undefined>;
  sessionIdOfRefreshToken(db: Db, token: string): Promise<number | undefined>;
}
