-- School bus (internal/schoolbus, spec §3 "School-bus student", §7 /ds/schoolCar/*): the customer's students
-- with their guardian, and the card punches bus terminals report (boarded / alighted, time, position). A punch
-- keeps the student's number and name: it is a record of who rode which bus and outlives a deleted student.

-- +goose Up
CREATE TABLE school_students (
    id             {{identity}},
    customer_id    BIGINT  NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    student_num    TEXT    NOT NULL,               -- the number on the student's card, unique per customer
    student_name   TEXT    NOT NULL,
    student_avatar TEXT    NOT NULL DEFAULT '',
    student_birth  TEXT    NOT NULL DEFAULT '',    -- YYYY-MM-DD or ''
    student_sex    INTEGER NOT NULL DEFAULT 0,     -- 0 not stated, 1 male, 2 female
    guardian_name  TEXT    NOT NULL,
    guardian_phone TEXT    NOT NULL,
    created_by     TEXT    NOT NULL DEFAULT '',
    created_at     BIGINT  NOT NULL
);
CREATE UNIQUE INDEX school_students_num ON school_students (customer_id, student_num);

CREATE TABLE school_punches (
    id           {{identity}},
    customer_id  BIGINT  NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    student_id   BIGINT  NOT NULL,                 -- school_students.id (no key: the record outlives the student)
    student_num  TEXT    NOT NULL,
    student_name TEXT    NOT NULL DEFAULT '',
    bus_id       TEXT    NOT NULL,                 -- the bus terminal's msId
    kind         INTEGER NOT NULL,                 -- 1 boarded, 2 alighted
    at           BIGINT  NOT NULL,                 -- when the card was punched (terminal's clock, ms)
    lat          DOUBLE PRECISION,
    lng          DOUBLE PRECISION,
    received_at  BIGINT  NOT NULL
);
-- A terminal that repeats a punch it is not sure arrived (no reply before a drop) stores nothing twice.
CREATE UNIQUE INDEX school_punches_once ON school_punches (customer_id, student_id, bus_id, kind, at);
CREATE INDEX school_punches_student ON school_punches (student_id, at);
CREATE INDEX school_punches_customer_at ON school_punches (customer_id, at);

-- +goose Down
DROP TABLE school_punches;
DROP TABLE school_students;
