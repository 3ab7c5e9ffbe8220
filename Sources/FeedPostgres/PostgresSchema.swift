import FeedCore
import PostgresNIO

/// The catalog's versioned schema in PostgreSQL. Migrations are append-only, as with SQLite:
/// a released one is never edited, and a database holding a migration this list does not know
/// is refused as written by a newer feed. They run in one transaction under an advisory lock,
/// so processes starting together migrate once and never see half a schema.
enum PostgresSchema {
    /// The NOTIFY channel a queued job is announced on.
    static let jobChannel = "feed_jobs"
    /// `pg_advisory_xact_lock` key: "feed" in ASCII.
    static let lockKey: Int64 = 0x6665_6564

    /// (identifier, statements), in order.
    static let migrations: [(String, [String])] = [
        ("v1 recordings, marks, comments, jobs", [
            """
            CREATE TABLE recording (
                id BIGSERIAL PRIMARY KEY,
                file_name TEXT NOT NULL UNIQUE,
                original_path TEXT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL,
                duration DOUBLE PRECISION NOT NULL,
                width INTEGER NOT NULL,
                height INTEGER NOT NULL,
                fps DOUBLE PRECISION NOT NULL,
                video_codec TEXT NOT NULL,
                has_audio BOOLEAN NOT NULL,
                bytes BIGINT NOT NULL,
                sha256 TEXT NOT NULL,
                sources TEXT,
                stack_options TEXT,
                title TEXT
            )
            """,
            "CREATE INDEX recording_newest ON recording(created_at DESC, id DESC)",
            "CREATE INDEX recording_sha256 ON recording(sha256)",
            """
            CREATE TABLE video_mark (
                video_id TEXT PRIMARY KEY,
                liked_at DOUBLE PRECISION,
                bookmarked_at DOUBLE PRECISION
            )
            """,
            """
            CREATE TABLE comment (
                id BIGSERIAL PRIMARY KEY,
                username TEXT NOT NULL,
                text TEXT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL
            )
            """,
            """
            CREATE TABLE job (
                id BIGSERIAL PRIMARY KEY,
                kind TEXT NOT NULL,
                state TEXT NOT NULL CHECK (state IN ('queued', 'running', 'done', 'failed', 'cancelled', 'dead')),
                request TEXT NOT NULL,
                progress DOUBLE PRECISION NOT NULL DEFAULT 0,
                recording_id BIGINT,
                error TEXT,
                created_at DOUBLE PRECISION NOT NULL,
                updated_at DOUBLE PRECISION NOT NULL,
                attempts INTEGER NOT NULL DEFAULT 0,
                max_attempts INTEGER NOT NULL DEFAULT 5,
                run_at DOUBLE PRECISION NOT NULL,
                started_at DOUBLE PRECISION,
                worker TEXT,
                token TEXT,
                lease_expires_at DOUBLE PRECISION,
                output TEXT
            )
            """,
            // The claim's scan: queued jobs only, oldest first.
            "CREATE INDEX job_queued ON job(id) WHERE state = 'queued'",
            "CREATE INDEX job_leases ON job(lease_expires_at) WHERE state = 'running'",
            // `feed jobs --state S` for the states worth looking up; done jobs (the bulk) are
            // found by id, and ending a job adds no entry here.
            "CREATE INDEX job_unfinished ON job(state, id) WHERE state <> 'done'",
            // Every job that becomes queued (new, retried, taken back) wakes listening workers
            // when its transaction commits; one notification per transaction (same payload).
            """
            CREATE FUNCTION feed_job_queued() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                PERFORM pg_notify('\(jobChannel)', '');
                RETURN NULL;
            END $$
            """,
            """
            CREATE TRIGGER job_queued_notify AFTER INSERT OR UPDATE OF state ON job
            FOR EACH ROW WHEN (NEW.state = 'queued') EXECUTE FUNCTION feed_job_queued()
            """,
        ]),
        ("v2 uploads", [
            """
            CREATE TABLE upload (
                id TEXT PRIMARY KEY,
                length BIGINT NOT NULL,
                metadata TEXT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL,
                state TEXT NOT NULL CHECK (state IN ('uploading', 'done', 'failed')),
                recording_id BIGINT,
                error TEXT,
                finished_at DOUBLE PRECISION,
                claim_token TEXT,
                claim_expires_at DOUBLE PRECISION
            )
            """,
            // Recovery's scan every 10 s: unfinished uploads only.
            "CREATE INDEX upload_unfinished ON upload(created_at) WHERE state = 'uploading'",
        ]),
        // Marks filed per feed (id 100 of one feed is not id 100 of another); those made
        // before are kept under the empty key, which every feed sees (see MarkStore).
        ("v3 marks per feed", [
            "ALTER TABLE video_mark ADD COLUMN feed TEXT NOT NULL DEFAULT ''",
            "ALTER TABLE video_mark DROP CONSTRAINT video_mark_pkey",
            "ALTER TABLE video_mark ADD PRIMARY KEY (feed, video_id)",
            "ALTER TABLE video_mark ALTER COLUMN feed DROP DEFAULT",
        ]),
        // Users: what each row belongs to (NULL: the server's own, rows from before and those the
        // CLI adds; only an admin sees them), and marks per user ('' the CLI's and an open server's).
        ("v4 owners", [
            "ALTER TABLE recording ADD COLUMN owner TEXT",
            "CREATE INDEX recording_owner_newest ON recording(owner, created_at DESC, id DESC)",
            "ALTER TABLE job ADD COLUMN owner TEXT",
            "ALTER TABLE upload ADD COLUMN owner TEXT",
            "ALTER TABLE comment ADD COLUMN owner TEXT",
            "ALTER TABLE video_mark ADD COLUMN owner TEXT NOT NULL DEFAULT ''",
            "ALTER TABLE video_mark DROP CONSTRAINT video_mark_pkey",
            "ALTER TABLE video_mark ADD PRIMARY KEY (owner, feed, video_id)",
            "ALTER TABLE video_mark ALTER COLUMN owner DROP DEFAULT",
        ]),
        // Webhook endpoints, shared by every server and worker of the catalog.
        ("v5 webhooks", [
            """
            CREATE TABLE webhook (
                id BIGSERIAL PRIMARY KEY,
                url TEXT NOT NULL UNIQUE,
                secret TEXT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL
            )
            """,
        ]),
        ("v6 live streams", [
            """
            CREATE TABLE live_stream (
                id BIGSERIAL PRIMARY KEY,
                title TEXT NOT NULL,
                stream_key TEXT NOT NULL,
                key_hash TEXT NOT NULL UNIQUE,
                state TEXT NOT NULL CHECK (state IN ('idle', 'active', 'ended')),
                owner TEXT,
                created_at DOUBLE PRECISION NOT NULL,
                went_live_at DOUBLE PRECISION,
                ended_at DOUBLE PRECISION,
                recording_id BIGINT,
                error TEXT
            )
            """,
            "CREATE INDEX live_stream_owner ON live_stream(owner, id)",
        ]),
        ("v7 live comments", [
            """
            CREATE TABLE live_comment (
                id BIGSERIAL PRIMARY KEY,
                stream_id BIGINT NOT NULL,
                username TEXT NOT NULL,
                text TEXT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL,
                stream_time DOUBLE PRECISION,
                owner TEXT
            )
            """,
            "CREATE INDEX live_comment_stream ON live_comment(stream_id, id)",
        ]),
        // Which server packages a live stream, so that the others send its players there.
        ("v8 live origin", ["ALTER TABLE live_stream ADD COLUMN origin TEXT"]),
        // The room's figures, so that every server sharing the catalog shows the same.
        ("v9 live room figures", [
            "ALTER TABLE live_stream ADD COLUMN viewers INTEGER NOT NULL DEFAULT 0",
            "ALTER TABLE live_stream ADD COLUMN hearts BIGINT NOT NULL DEFAULT 0",
        ]),
        // Deliveries and other jobs of one kind, found however many other jobs came after them.
        ("v10 jobs by kind", ["CREATE INDEX job_kind ON job(kind, state, id)"]),
        // The bytes a PATCH has made durable, for a HEAD on another server meanwhile.
        ("v11 upload synced offset", ["ALTER TABLE upload ADD COLUMN synced_offset BIGINT"]),
        // The social catalog (FeedSocial): users, posts of recordings, their tags, likes and
        // comments, follows, blocks and reports. Counts are columns kept in step by the writes
        // that add and remove rows; posts are numbered from 10^12 + 1 (SocialPost.firstID).
        ("v12 social", [
            """
            CREATE TABLE app_user (
                name TEXT PRIMARY KEY,
                display_name TEXT,
                bio TEXT NOT NULL DEFAULT '',
                avatar_recording BIGINT,
                followers BIGINT NOT NULL DEFAULT 0,
                following BIGINT NOT NULL DEFAULT 0,
                videos BIGINT NOT NULL DEFAULT 0,
                likes BIGINT NOT NULL DEFAULT 0,
                created_at DOUBLE PRECISION NOT NULL
            )
            """,
            """
            CREATE TABLE post (
                id BIGINT GENERATED BY DEFAULT AS IDENTITY (START WITH 1000000000001) PRIMARY KEY,
                recording_id BIGINT NOT NULL UNIQUE,
                author TEXT NOT NULL,
                description TEXT NOT NULL,
                visibility TEXT NOT NULL CHECK (visibility IN ('public', 'followers', 'private')),
                created_at DOUBLE PRECISION NOT NULL,
                likes BIGINT NOT NULL DEFAULT 0,
                comments BIGINT NOT NULL DEFAULT 0,
                shares BIGINT NOT NULL DEFAULT 0,
                hidden BOOLEAN NOT NULL DEFAULT FALSE
            )
            """,
            "CREATE INDEX post_author ON post(author, id DESC)",
            "CREATE INDEX post_likes ON post(likes DESC, id DESC)",
            "CREATE TABLE post_tag (tag TEXT NOT NULL, post_id BIGINT NOT NULL, PRIMARY KEY (tag, post_id))",
            "CREATE INDEX post_tag_post ON post_tag(post_id)",
            "CREATE TABLE post_like (post_id BIGINT NOT NULL, liker TEXT NOT NULL, created_at DOUBLE PRECISION NOT NULL, PRIMARY KEY (post_id, liker))",
            """
            CREATE TABLE follow (
                id BIGSERIAL PRIMARY KEY,
                follower TEXT NOT NULL,
                followee TEXT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL,
                UNIQUE (follower, followee)
            )
            """,
            "CREATE INDEX follow_followee ON follow(followee, id DESC)",
            "CREATE INDEX follow_follower ON follow(follower, id DESC)",
            """
            CREATE TABLE post_comment (
                id BIGSERIAL PRIMARY KEY,
                post_id BIGINT NOT NULL,
                parent_id BIGINT,
                author TEXT NOT NULL,
                text TEXT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL,
                replies BIGINT NOT NULL DEFAULT 0,
                hidden BOOLEAN NOT NULL DEFAULT FALSE
            )
            """,
            "CREATE INDEX post_comment_thread ON post_comment(post_id, parent_id, id DESC)",
            "CREATE INDEX post_comment_parent ON post_comment(parent_id, id DESC)",
            "CREATE TABLE user_block (blocker TEXT NOT NULL, blocked TEXT NOT NULL, created_at DOUBLE PRECISION NOT NULL, PRIMARY KEY (blocker, blocked))",
            """
            CREATE TABLE report (
                id BIGSERIAL PRIMARY KEY,
                post_id BIGINT,
                comment_id BIGINT,
                reporter TEXT NOT NULL,
                reason TEXT NOT NULL,
                note TEXT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL
            )
            """,
            "CREATE INDEX report_post ON report(post_id)",
            "CREATE INDEX report_comment ON report(comment_id)",
        ]),
        // Live streams created to be published: what their post says, until it is made.
        ("v13 live publish", [
            "CREATE TABLE live_publish (stream_id BIGINT PRIMARY KEY, author TEXT, description TEXT NOT NULL, visibility TEXT NOT NULL)",
        ]),
        // For You (FeedRecs): the events clients send, devices linked to users, the trained
        // models every server serves, and each post's plays.
        ("v14 recs", [
            "ALTER TABLE post ADD COLUMN views BIGINT NOT NULL DEFAULT 0",
            "CREATE INDEX post_created ON post(created_at)",
            """
            CREATE TABLE event (
                seq BIGSERIAL PRIMARY KEY,
                sender TEXT NOT NULL,
                client_id TEXT NOT NULL,
                actor TEXT NOT NULL,
                type TEXT NOT NULL,
                video BIGINT NOT NULL,
                at DOUBLE PRECISION NOT NULL,
                watched_ms BIGINT,
                duration_ms BIGINT,
                UNIQUE (sender, client_id)
            )
            """,
            "CREATE INDEX event_actor ON event(actor, at DESC)",
            "CREATE INDEX event_refusal ON event(actor) WHERE type IN ('not_interested', 'hide_creator')",
            "CREATE TABLE device_link (device TEXT PRIMARY KEY, user_name TEXT NOT NULL, linked_at DOUBLE PRECISION NOT NULL)",
            """
            CREATE TABLE recs_model (
                version BIGSERIAL PRIMARY KEY,
                trained_at DOUBLE PRECISION NOT NULL,
                events BIGINT NOT NULL,
                viewers BIGINT NOT NULL,
                videos BIGINT NOT NULL,
                seconds DOUBLE PRECISION NOT NULL,
                bytes BIGINT NOT NULL,
                data BYTEA NOT NULL
            )
            """,
        ]),
    ]

    /// Brings `catalog`'s database up to date in one transaction under the advisory lock.
    static func migrate(_ catalog: PostgresCatalog) async throws(RollError) {
        let known = migrations.map(\.0)
        let place = catalog.location.description
        let outcome: [String] = try await catalog.transaction { connection, logger in
            try await connection.query("SELECT pg_advisory_xact_lock(\(lockKey))", logger: logger)
            try await connection.query("""
                CREATE TABLE IF NOT EXISTS feed_migration (id TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())
                """, logger: logger)
            var applied: Set<String> = []
            for try await id in try await connection.query("SELECT id FROM feed_migration", logger: logger).decode(String.self) {
                applied.insert(id)
            }
            let unknown = applied.subtracting(known).sorted()
            if !unknown.isEmpty { return unknown }
            for (id, statements) in migrations where !applied.contains(id) {
                for statement in statements {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query("INSERT INTO feed_migration(id) VALUES (\(id))", logger: logger)
            }
            return []
        }
        if !outcome.isEmpty { throw RollError.newerSchema(path: place, unknownMigrations: outcome) }
    }
}
