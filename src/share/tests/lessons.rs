//! Links made inside a lesson: they carry the lesson and step (v4, and v3 from earlier builds),
//! reopen the same world, and read older links as runs outside any lesson.

use super::*;
use crate::lesson::course;
use crate::lesson::headless::{lesson_session, play_to_step, resume_at};
use quorumlab_sim::scenario::Invalid;

fn in_fencing_step_two(mut run: SharedRun) -> SharedRun {
    run.lesson = Some(SharedLesson {
        id: "fencing-tokens".into(),
        step: 1,
        step_began: SimTime(50_000),
    });
    run
}

#[test]
fn a_run_in_a_lesson_is_written_as_v4_and_read_back_whole() {
    let run = in_fencing_step_two(sample_run());
    let fragment = encode_fragment(&run).unwrap();
    assert!(fragment.starts_with("#/run/v4/"), "{fragment}");
    assert_eq!(decode_fragment(&fragment), Ok(run));
}

#[test]
fn plain_runs_are_v4_and_old_plain_links_read_as_no_lesson() {
    let plain = sample_run();
    let fragment = encode_fragment(&plain).unwrap();
    assert!(fragment.starts_with("#/run/v4/"));
    assert_eq!(decode_fragment(&fragment), Ok(plain));
    for name in ["v1 raft", "v2 raft", "v2 lock-service"] {
        let recorded = super::recorded_links::Recorded::named(name);
        assert_eq!(decode_fragment(recorded.fragment).unwrap().lesson, None);
    }
}

#[test]
fn a_v3_body_with_an_empty_lesson_block_reads_as_no_lesson() {
    let v2 = super::recorded_links::Recorded::named("v2 lock-service");
    let fragment = {
        let mut writer = Writer::default();
        writer.raw(&v2.body());
        writer.unsigned(0);
        writer.fragment("v3")
    };
    assert_eq!(
        decode_fragment(&fragment),
        decode_fragment(v2.fragment),
        "the same run"
    );
}

#[test]
fn a_v2_body_labelled_v3_is_refused_not_misread() {
    let v2 = super::recorded_links::Recorded::named("v2 raft");
    assert!(matches!(
        decode_error(&v2.fragment.replace("/v2/", "/v3/")),
        ShareError::Truncated { .. }
    ));
}

#[test]
fn a_v3_lesson_block_with_a_bad_field_is_refused_by_name() {
    let v2 = super::recorded_links::Recorded::named("v2 raft");
    let fragment = {
        let mut writer = Writer::default();
        writer.raw(&v2.body());
        writer.unsigned(1);
        writer.text("fencing-tokens");
        writer.unsigned(65);
        writer.unsigned(0);
        writer.fragment("v3")
    };
    assert!(matches!(
        decode_error(&fragment),
        ShareError::Invalid(Invalid::OutOfRange { ref field, .. }) if field == "lesson step"
    ));
}

#[test]
fn bad_lesson_fields_are_refused_by_name_when_writing_and_reading() {
    type Change = fn(&mut SharedLesson);
    let cases: [(Change, &str); 4] = [
        (|lesson| lesson.id = "Bad Id".into(), "lesson id"),
        (|lesson| lesson.id.clear(), "lesson id"),
        (|lesson| lesson.step = 65, "lesson step"),
        (
            |lesson| lesson.step_began = SimTime(100_000),
            "lesson step began",
        ),
    ];
    for (change, field) in cases {
        let mut run = in_fencing_step_two(sample_run());
        change(run.lesson.as_mut().unwrap());
        match encode_fragment(&run).unwrap_err() {
            ShareError::Invalid(Invalid::OutOfRange { field: named, .. }) => {
                assert_eq!(named, field)
            }
            other => panic!("expected {field} out of range, got {other:?}"),
        }
        let refused = decode_error(&unchecked_fragment(&run));
        assert!(refused.to_string().contains(field), "{refused}");
    }
}

#[test]
fn a_link_made_mid_lesson_reopens_the_same_world_and_step() {
    let lesson = course()
        .unwrap()
        .into_iter()
        .find(|lesson| lesson.steps.len() >= 2)
        .unwrap();
    let mut session = lesson_session(&lesson).unwrap();
    let tracker = play_to_step(&mut session, &lesson, 1).unwrap();
    session.advance_to(session.now().plus_ms(150));
    let mut run = capture(&session);
    run.lesson = Some(SharedLesson {
        id: lesson.id.clone(),
        step: tracker.current_step(),
        step_began: tracker.step_began(),
    });
    let decoded = decode_fragment(&encode_fragment(&run).unwrap()).unwrap();
    assert_eq!(decoded.lesson, run.lesson);
    let shared = decoded.lesson.clone().unwrap();
    let mut reopened = open(decoded).unwrap();
    assert_eq!(reopened.world().trace_hash(), session.world().trace_hash());
    let resumed = resume_at(&mut reopened, &lesson, shared.step, shared.step_began);
    assert_eq!(resumed.current_step(), 1);
    assert_eq!(resumed.step_began(), tracker.step_began());
    assert_eq!(
        reopened.now(),
        session.now(),
        "resuming leaves the run where it was"
    );
    assert_eq!(reopened.world().trace_hash(), session.world().trace_hash());
}
