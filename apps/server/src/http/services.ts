import type { AuthService } from '../modules/auth/service.js';
import type { ProfileService } from '../modules/profiles/service.js';
import type { UserService } from '../modules/users/service.js';
import type { Db } from '../db/client.js';
import type { RobotService } from '../modules/robots/service.js';

/** What route modules are handed; built once per app in http/app.ts. */
export interface Services {
  db: Db;
  auth: AuthService;
  users: UserService;
  profiles: ProfileService;
  robots: RobotService;
}
