-- Robot packages and avatars kept in the database when it is PostgreSQL (issue 11): one row per
-- stored file, its bytes in 1 MiB chunks, so every server instance serves them.
CREATE TABLE "blobs" (
	"blobs_id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "blobs_blobs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"sha256" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"touched_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "blobs_kind_check" CHECK ("kind" in ('package', 'avatar'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "blobs_kind_name_key" ON "blobs" USING btree ("kind","name");
--> statement-breakpoint
CREATE TABLE "blob_chunks" (
	"blobs_id" bigint NOT NULL,
	"seq" integer NOT NULL,
	"data" "bytea" NOT NULL,
	CONSTRAINT "blob_chunks_blobs_id_seq_pk" PRIMARY KEY("blobs_id","seq")
);
--> statement-breakpoint
ALTER TABLE "blob_chunks" ADD CONSTRAINT "blob_chunks_blobs_id_blobs_blobs_id_fk" FOREIGN KEY ("blobs_id") REFERENCES "public"."blobs"("blobs_id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
-- Packages are compressed already: store chunks out of line without trying pglz on them.
ALTER TABLE "blob_chunks" ALTER COLUMN "data" SET STORAGE EXTERNAL;
