import { zodResolver } from '@hookform/resolvers/zod';
import type { Resolver } from 'react-hook-form';
import { sessionCreateSchema, type SessionCreate } from '@rota/contract';

/** The sign-in form's validation, a chunk of its own (see `lazyResolver`). */
export const signInResolver: Resolver<SessionCreate> = zodResolver(sessionCreateSchema);
