import FeedCore
internal import GRDB

/// The roll's versioned schema. Migrations are append-only: a released one is never edited,
/// a change is a new migration, and a database holding migrations this list does not know
/// is refused as written by a newer feed.
enum SQLiteSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1 recordings and marks") { db in
            try db.execute(sql: """
                CREATE TABLE recording (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    file_name TEXT NOT NULL UNIQUE,
                    original_path TEXT NOT NULL,
                    created_at REAL NOT NULL,
                    duration REAL NOT NULL,
                    width INTEGER NOT NULL,
                    height INTEGER NOT NULL,
                    fps REAL NOT NULL,
                    video_codec TEXT NOT NULL,
                    has_audio INTEGER NOT NULL,
                    bytes INTEGER NOT NULL,
                    sha256 TEXT NOT NULL,
                    sources TEXT,
                    stack_options TEXT,
                    title TEXT
                );
                CREATE INDEX recording_newest ON recording(created_at DESC, id DESC);
                CREATE INDEX recording_sha256 ON recording(sha256);
                CREATE TABLE video_mark (
                    video_id TEXT PRIMARY KEY NOT NULL,
                    liked_at REAL,
                    bookmarked_at REAL
                );
                """)
        }
        migrator.registerMigration("v2 jobs") { db in
            try db.execute(sql: """
                CREATE TABLE job (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    kind TEXT NOT NULL,
                    state TEXT NOT NULL,
                    request TEXT NOT NULL,
                    progress REAL NOT NULL DEFAULT 0,
                    recording_id INTEGER,
                    error TEXT,
                    created_at REAL NOT NULL,
                    updated_at REAL NOT NULL
                );
                CREATE INDEX job_queue ON job(state, id);
                """)
        }
        migrator.registerMigration("v3 comments") { db in
            try db.execute(sql: """
                CREATE TABLE comment (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    username TEXT NOT NULL,
                    text TEXT NOT NULL,
                    created_at REAL NOT NULL
                );
                """)
        }
        migrator.registerMigration("v4 job leases") { db in
            try db.execute(sql: """
                ALTER TABLE job ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE job ADD COLUMN max_attempts INTEGER NOT NULL DEFAULT 5;
                ALTER TABLE job ADD COLUMN run_at REAL NOT NULL DEFAULT 0;
                ALTER TABLE job ADD COLUMN started_at REAL;
                ALTER TABLE job ADD COLUMN worker TEXT;
                ALTER TABLE job ADD COLUMN token TEXT;
                ALTER TABLE job ADD COLUMN lease_expires_at REAL;
                ALTER TABLE job ADD COLUMN output TEXT;
                CREATE INDEX job_leases ON job(state, lease_expires_at);
                UPDATE job SET state = 'queued' WHERE state = 'running';
                """)
        }
        migrator.registerMigration("v5 uploads") { db in
            try db.execute(sql: """
                CREATE TABLE upload (
                    id TEXT PRIMARY KEY NOT NULL,
                    length INTEGER NOT NULL,
                    metadata TEXT NOT NULL,
                    created_at REAL NOT NULL,
                    state TEXT NOT NULL,
                    recording_id INTEGER,
                    error TEXT,
                    finished_at REAL,
                    claim_token TEXT,
                    claim_expires_at REAL
                );
                CREATE INDEX upload_state ON upload(state, created_at);
                """)
        }
        // Marks filed per feed (id 100 of one feed is not id 100 of another); those made
        // before are kept under the empty key, which every feed sees (see MarkStore).
        migrator.registerMigration("v6 marks per feed") { db in
            try db.execute(sql: """
                CREATE TABLE video_mark_per_feed (
                    feed TEXT NOT NULL,
                    video_id TEXT NOT NULL,
                    liked_at REAL,
                    bookmarked_at REAL,
                    PRIMARY KEY (feed, video_id)
                );
                INSERT INTO video_mark_per_feed(feed, video_id, liked_at, bookmarked_at)
                    SELECT '', video_id, liked_at, bookmarked_at FROM video_mark;
                DROP TABLE video_mark;
                ALTER TABLE video_mark_per_feed RENAME TO video_mark;
                """)
        }
        // Users (`feed serve` with JWTs): what each row belongs to, and likes and bookmarks per
        // user. Rows from before, and those the CLI adds, have no owner (NULL): the server's own,
        // which only an admin sees; marks from before are the empty user's, the CLI's and an open
        // server's.
        migrator.registerMigration("v7 owners") { db in
            try db.execute(sql: """
                ALTER TABLE recording ADD COLUMN owner TEXT;
                CREATE INDEX recording_owner_newest ON recording(owner, created_at DESC, id DESC);
                ALTER TABLE job ADD COLUMN owner TEXT;
                ALTER TABLE upload ADD COLUMN owner TEXT;
                ALTER TABLE comment ADD COLUMN owner TEXT;
                CREATE TABLE video_mark_per_user (
                    owner TEXT NOT NULL,
                    feed TEXT NOT NULL,
                    video_id TEXT NOT NULL,
                    liked_at REAL,
                    bookmarked_at REAL,
                    PRIMARY KEY (owner, feed, video_id)
                );
                INSERT INTO video_mark_per_user(owner, feed, video_id, liked_at, bookmarked_at)
                    SELECT '', feed, video_id, liked_at, bookmarked_at FROM video_mark;
                DROP TABLE video_mark;
                ALTER TABLE video_mark_per_user RENAME TO video_mark;
                """)
        }
        // Webhook endpoints, shared by every server and worker of the catalog.
        migrator.registerMigration("v8 webhooks") { db in
            try db.execute(sql: """
                CREATE TABLE webhook (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    url TEXT NOT NULL UNIQUE,
                    secret TEXT NOT NULL,
                    created_at REAL NOT NULL
                );
                """)
        }
        // Live streams: looked up by their key's hash when a publisher sends it.
        migrator.registerMigration("v9 live streams") { db in
            try db.execute(sql: """
                CREATE TABLE live_stream (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    title TEXT NOT NULL,
                    stream_key TEXT NOT NULL,
                    key_hash TEXT NOT NULL UNIQUE,
                    state TEXT NOT NULL CHECK (state IN ('idle', 'active', 'ended')),
                    owner TEXT,
                    created_at REAL NOT NULL,
                    went_live_at REAL,
                    ended_at REAL,
                    recording_id INTEGER,
                    error TEXT
                );
                CREATE INDEX live_stream_owner ON live_stream(owner, id);
                """)
        }
        // The chat of live streams, read by stream and id.
        migrator.registerMigration("v10 live comments") { db in
            try db.execute(sql: """
                CREATE TABLE live_comment (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    stream_id INTEGER NOT NULL,
                    username TEXT NOT NULL,
                    text TEXT NOT NULL,
                    created_at REAL NOT NULL,
                    stream_time REAL,
                    owner TEXT
                );
                CREATE INDEX live_comment_stream ON live_comment(stream_id, id);
                """)
        }
        // Which server packages a live stream, so that the others send its players there.
        migrator.registerMigration("v11 live origin") { db in
            try db.execute(sql: "ALTER TABLE live_stream ADD COLUMN origin TEXT")
        }
        // The room's figures, so that every server sharing the catalog shows the same.
        migrator.registerMigration("v12 live room figures") { db in
            try db.execute(sql: "ALTER TABLE live_stream ADD COLUMN viewers INTEGER NOT NULL DEFAULT 0")
            try db.execute(sql: "ALTER TABLE live_stream ADD COLUMN hearts INTEGER NOT NULL DEFAULT 0")
        }
        // Deliveries and other jobs of one kind, found however many other jobs came after them.
        migrator.registerMigration("v13 jobs by kind") { db in
            try db.execute(sql: "CREATE INDEX job_kind ON job(kind, state, id)")
        }
        // The bytes a PATCH has made durable, for a HEAD on another server meanwhile.
        migrator.registerMigration("v14 upload synced offset") { db in
            try db.execute(sql: "ALTER TABLE upload ADD COLUMN synced_offset INTEGER")
        }
        // The social catalog (FeedSocial): users, posts of recordings, their tags, likes and
        // comments, follows, blocks and reports. Counts are columns kept in step by the writes
        // that add and remove rows; posts are numbered from 10^12 + 1 (SocialPost.firstID).
        migrator.registerMigration("v15 social") { db in
            try db.execute(sql: SQLiteSchema.social)
        }
        // Live streams created to be published: what their post says, until it is made.
        migrator.registerMigration("v16 live publish") { db in
            try db.execute(sql: """
                CREATE TABLE live_publish (
                    stream_id INTEGER PRIMARY KEY,
                    author TEXT,
                    description TEXT NOT NULL,
                    visibility TEXT NOT NULL
                );
                """)
        }
        // For You (FeedRecs): the events clients send, devices linked to users, the trained
        // models every server serves, and each post's plays.
        migrator.registerMigration("v17 recs") { db in
            try db.execute(sql: SQLiteSchema.recs)
        }
        return migrator
    }

    /// Migration v17's statements.
    static let recs = """
        ALTER TABLE post ADD COLUMN views INTEGER NOT NULL DEFAULT 0;
        CREATE INDEX post_created ON post(created_at);
        CREATE TABLE event (
            seq INTEGER PRIMARY KEY,
            sender TEXT NOT NULL,
            client_id TEXT NOT NULL,
            actor TEXT NOT NULL,
            type TEXT NOT NULL,
            video INTEGER NOT NULL,
            at REAL NOT NULL,
            watched_ms INTEGER,
            duration_ms INTEGER,
            UNIQUE (sender, client_id)
        );
        CREATE INDEX event_actor ON event(actor, at DESC);
        CREATE INDEX event_refusal ON event(actor) WHERE type IN ('not_interested', 'hide_creator');
        CREATE TABLE device_link (
            device TEXT PRIMARY KEY NOT NULL,
            user_name TEXT NOT NULL,
            linked_at REAL NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE recs_model (
            version INTEGER PRIMARY KEY AUTOINCREMENT,
            trained_at REAL NOT NULL,
            events INTEGER NOT NULL,
            viewers INTEGER NOT NULL,
            videos INTEGER NOT NULL,
            seconds REAL NOT NULL,
            bytes INTEGER NOT NULL,
            data BLOB NOT NULL
        );
        """

    /// Migration v15's statements.
    static let social = """
        CREATE TABLE app_user (
            name TEXT PRIMARY KEY NOT NULL,
            display_name TEXT,
            bio TEXT NOT NULL DEFAULT '',
            avatar_recording INTEGER,
            followers INTEGER NOT NULL DEFAULT 0,
            following INTEGER NOT NULL DEFAULT 0,
            videos INTEGER NOT NULL DEFAULT 0,
            likes INTEGER NOT NULL DEFAULT 0,
            created_at REAL NOT NULL
        );
        CREATE TABLE post (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            recording_id INTEGER NOT NULL UNIQUE,
            author TEXT NOT NULL,
            description TEXT NOT NULL,
            visibility TEXT NOT NULL CHECK (visibility IN ('public', 'followers', 'private')),
            created_at REAL NOT NULL,
            likes INTEGER NOT NULL DEFAULT 0,
            comments INTEGER NOT NULL DEFAULT 0,
            shares INTEGER NOT NULL DEFAULT 0,
            hidden INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX post_author ON post(author, id DESC);
        CREATE INDEX post_likes ON post(likes DESC, id DESC);
        INSERT INTO sqlite_sequence(name, seq) VALUES ('post', 1000000000000);
        CREATE TABLE post_tag (
            tag TEXT NOT NULL,
            post_id INTEGER NOT NULL,
            PRIMARY KEY (tag, post_id)
        ) WITHOUT ROWID;
        CREATE INDEX post_tag_post ON post_tag(post_id);
        CREATE TABLE post_like (
            post_id INTEGER NOT NULL,
            liker TEXT NOT NULL,
            created_at REAL NOT NULL,
            PRIMARY KEY (post_id, liker)
        ) WITHOUT ROWID;
        CREATE TABLE follow (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            follower TEXT NOT NULL,
            followee TEXT NOT NULL,
            created_at REAL NOT NULL,
            UNIQUE (follower, followee)
        );
        CREATE INDEX follow_followee ON follow(followee, id DESC);
        CREATE INDEX follow_follower ON follow(follower, id DESC);
        CREATE TABLE post_comment (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            post_id INTEGER NOT NULL,
            parent_id INTEGER,
            author TEXT NOT NULL,
            text TEXT NOT NULL,
            created_at REAL NOT NULL,
            replies INTEGER NOT NULL DEFAULT 0,
            hidden INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX post_comment_thread ON post_comment(post_id, parent_id, id DESC);
        CREATE INDEX post_comment_parent ON post_comment(parent_id, id DESC);
        CREATE TABLE user_block (
            blocker TEXT NOT NULL,
            blocked TEXT NOT NULL,
            created_at REAL NOT NULL,
            PRIMARY KEY (blocker, blocked)
        ) WITHOUT ROWID;
        CREATE TABLE report (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            post_id INTEGER,
            comment_id INTEGER,
            reporter TEXT NOT NULL,
            reason TEXT NOT NULL,
            note TEXT NOT NULL,
            created_at REAL NOT NULL
        );
        CREATE INDEX report_post ON report(post_id);
        CREATE INDEX report_comment ON report(comment_id);
        """
}
