import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openPostgres } from '../src/db/client.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated, empty PostgreSQL database; each test file's database is a copy of it. */
    postgresTemplate: string;
  }
}

/**
 * Running every migration into each file's new database costs seconds a file; PostgreSQL copies a
 * migrated template (`CREATE DATABASE … TEMPLATE`) in a fraction of that.
 */
export default async function setup(project: TestProject) {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('the postgres test project needs DATABASE_URL');
  const name = `rota_template_${process.pid}_${randomBytes(4).toString('hex')}`;
  await adminQuery(url, `create database ${name}`);
  const templateUrl = new URL(url);
  templateUrl.pathname = `/${name}`;
  const database = await openPostgres(templateUrl.toString(), 2);
  await database.migrate();
  await database.close();
  project.provide('postgresTemplate', name);
  return async () => {
    await adminQuery(url, `drop database if exists ${name} with (force)`);
  };
}

async function adminQuery(url: string, sql: string) {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}
