//! Reading a lesson file: `+++` TOML front matter `+++`, then the markdown body.
//!
//! The front matter is parsed with the scenario parser's own typed readers, so a lesson and a scenario
//! report mistakes the same way, and a solution action (`{ after_ms = 300, do = "crash", target =
//! "leader" }`) is read by the very code that reads a scenario's `[[step]]`.

use super::checkpoint::parse_checkpoint;
use super::errors::{LessonError, LessonErrorKind};
use super::live_names::{placeholders, LiveName, LIVE_NAMES};
use super::pacing::read_pacing;
use super::{
    InterviewQuestion, Lesson, LessonStep, PredictOption, Prediction, SolutionAction, StepWorld,
    SCENARIO_FILES,
};
use crate::tooling::scenario::errors::line_and_column;
use crate::tooling::scenario::fields::{Field, NodeNames, Place, Source, TableReader};
use crate::tooling::scenario::steps::parse_action;
use crate::tooling::scenario::{
    all_examples, parse_scenario, Scenario, ScenarioErrorKind, EXAMPLES, MAX_DURATION_MS,
};
use toml::de::{DeTable, DeValue};

const TOP_LEVEL_KEYS: &[&str] = &[
    "id",
    "title",
    "order",
    "outcomes",
    "scenario",
    "start_ms",
    "step",
    "interview",
];
const STEP_KEYS: &[&str] = &[
    "instruction",
    "checkpoint",
    "solution",
    "within_ms",
    "predict",
    "scenario",
    "playback_percent",
    "moves_while_paused",
    "look",
    "search",
];
const PREDICT_KEYS: &[&str] = &["question", "options"];
const OPTION_KEYS: &[&str] = &["text", "correct", "explanation"];

/// Default time a lesson runs before its first step, so a leader has been elected.
pub const DEFAULT_START_MS: u64 = 1_000;
/// Default time a checkpoint is given after a step's last solution action.
pub const DEFAULT_WITHIN_MS: u64 = 3_000;

type Result<T> = std::result::Result<T, LessonError>;

/// Parses and validates lesson `text`; `file` names it in errors.
pub fn parse_lesson(text: &str, file: &str) -> Result<Lesson> {
    let (front_matter, body) = split_front_matter(text).ok_or_else(|| LessonError {
        file: file.to_string(),
        line: 1,
        column: 1,
        step: None,
        key: None,
        kind: Box::new(LessonErrorKind::MissingFrontMatter),
    })?;
    // One blank line stands for the opening `+++`, so TOML line numbers are the file's line numbers.
    let toml_text = format!("\n{front_matter}");
    let source = Source {
        text: &toml_text,
        file,
    };
    let document = DeTable::parse(&toml_text).map_err(|error| {
        let span = error.span().unwrap_or(0..0);
        let message = error.message().to_string();
        LessonError::from(source.error(
            span,
            None,
            None,
            ScenarioErrorKind::MalformedToml { message },
        ))
    })?;
    let top = TableReader {
        place: Place {
            source: &source,
            step: None,
            key_prefix: "",
        },
        table: document.get_ref(),
        span: 0..0,
        needed_by: "the lesson".to_string(),
    };
    top.check_keys(TOP_LEVEL_KEYS)?;
    let id_field = top.required("id")?;
    let id = id_field.string()?.to_string();
    let id_is_valid = !id.is_empty()
        && id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    if !id_is_valid {
        return Err(lesson_error(&id_field, LessonErrorKind::BadId { id }));
    }
    let title = top.required("title")?.string()?.to_string();
    let order = top.required("order")?.unsigned_in(1, 1_000)? as u32;
    let outcomes = strings(top.required("outcomes")?)?;
    let (scenario_path, scenario) = read_scenario(top.required("scenario")?)?;
    let start_ms = match top.optional("start_ms") {
        Some(field) => field.unsigned_in(0, scenario.duration_ms)?,
        None => DEFAULT_START_MS.min(scenario.duration_ms),
    };
    // A step with a scenario of its own names nodes of that world, and so do the steps after it.
    let mut names = node_names(&scenario);
    let mut step_world = scenario.clone();
    let mut steps = Vec::new();
    if let Some(field) = top.optional("step") {
        for (index, entry) in field.array()?.iter().enumerate() {
            let place = Place {
                step: Some(index + 1),
                ..field.place
            };
            let table = table_of(
                Field {
                    place,
                    ..field.element(entry)
                },
                "every step",
            )?;
            let own_world = match table.optional("scenario") {
                Some(field) => Some(read_step_scenario(field, start_ms)?),
                None => None,
            };
            if let Some(world) = &own_world {
                names = node_names(&world.scenario);
                step_world = world.scenario.clone();
            }
            steps.push(read_step(&table, &names, &step_world, own_world)?);
        }
    }
    let interview = match top.optional("interview") {
        Some(field) => read_interview(field)?,
        None => Vec::new(),
    };
    Ok(Lesson {
        id,
        title,
        order,
        outcomes,
        scenario_path,
        scenario,
        start_ms,
        steps,
        interview,
        body: body.to_string(),
        source_hash: crate::base::hash::fnv_of(text.as_bytes()),
    })
}

/// `(front matter, body)` when the text opens with a `+++` line and has a closing one.
fn split_front_matter(text: &str) -> Option<(&str, &str)> {
    let rest = text
        .strip_prefix("+++\n")
        .or_else(|| text.strip_prefix("+++\r\n"))?;
    let mut offset = 0;
    for line in rest.split_inclusive('\n') {
        if line.trim_end() == "+++" {
            return Some((&rest[..offset], &rest[offset + line.len()..]));
        }
        offset += line.len();
    }
    None
}

/// An error of a lesson-only kind, placed at `field`'s value.
pub(super) fn lesson_error(field: &Field<'_>, kind: LessonErrorKind) -> LessonError {
    let place = field.place;
    let (line, column) = line_and_column(place.source.text, field.value.span().start);
    LessonError {
        file: place.source.file.to_string(),
        line,
        column,
        step: place.step,
        key: Some(format!("{}{}", place.key_prefix, field.key)),
        kind: Box::new(kind),
    }
}

fn strings(field: Field<'_>) -> Result<Vec<String>> {
    field
        .array()?
        .iter()
        .map(|item| Ok(field.element(item).string()?.to_string()))
        .collect()
}

pub(super) fn table_of<'a>(field: Field<'a>, needed_by: &str) -> Result<TableReader<'a>> {
    match field.value.get_ref() {
        DeValue::Table(table) => Ok(TableReader {
            place: field.place,
            table,
            span: field.value.span(),
            needed_by: needed_by.to_string(),
        }),
        other => Err(field
            .error(ScenarioErrorKind::WrongType {
                expected: "a table",
                found: other.type_str(),
            })
            .into()),
    }
}

/// A step's own world: it must run at least as long as the lesson runs before a world's first step.
fn read_step_scenario(field: Field<'_>, start_ms: u64) -> Result<StepWorld> {
    let (path, scenario) = read_scenario(field)?;
    if scenario.duration_ms <= start_ms {
        let message = format!(
            "it lasts {} ms, no longer than the lesson's start_ms ({start_ms} ms)",
            scenario.duration_ms
        );
        return Err(lesson_error(
            &field,
            LessonErrorKind::BadScenario { message },
        ));
    }
    Ok(StepWorld { path, scenario })
}

fn read_scenario(field: Field<'_>) -> Result<(String, Scenario)> {
    let path = field.string()?;
    let Some(text) = scenario_text(path) else {
        let examples = EXAMPLES
            .iter()
            .map(|(name, _)| format!("{EXAMPLE_FOLDER}{name}"));
        let worlds = all_examples()
            .skip(EXAMPLES.len())
            .map(|(name, _)| name.to_string());
        let known = SCENARIO_FILES
            .iter()
            .map(|(known, _)| known.to_string())
            .chain(examples)
            .chain(worlds)
            .collect();
        let path = path.to_string();
        return Err(lesson_error(
            &field,
            LessonErrorKind::UnknownScenario { path, known },
        ));
    };
    let scenario = parse_scenario(text, path).map_err(|error| {
        let message = error.to_string();
        lesson_error(&field, LessonErrorKind::BadScenario { message })
    })?;
    Ok((path.to_string(), scenario))
}

/// The folder of the engine's example scenarios, as a lesson names them.
const EXAMPLE_FOLDER: &str = "sim/scenarios/";

/// A lesson scenario by path: `lessons/scenarios/...`, one of the engine's examples,
/// `sim/scenarios/...`, or a world's own example by its name, `<world>/<file>.toml` (found through the
/// registry).
fn scenario_text(path: &str) -> Option<&'static str> {
    let lesson_file = SCENARIO_FILES.iter().find(|(known, _)| *known == path);
    let example = path
        .strip_prefix(EXAMPLE_FOLDER)
        .and_then(|name| EXAMPLES.iter().find(|(known, _)| *known == name));
    let text = lesson_file.or(example).map(|(_, text)| *text);
    text.or_else(|| {
        let mut worlds = all_examples().skip(EXAMPLES.len());
        worlds
            .find(|(known, _)| *known == path)
            .map(|(_, text)| text)
    })
}

/// Every `{word}` of an instruction must be a name the app can fill from the run.
fn check_live_names(field: &Field<'_>, instruction: &str) -> Result<()> {
    let unknown = placeholders(instruction)
        .into_iter()
        .find(|(_, word)| LiveName::from_placeholder(word).is_none());
    match unknown {
        Some((_, word)) => Err(lesson_error(
            field,
            LessonErrorKind::UnknownLiveName {
                word: word.to_string(),
                known: LIVE_NAMES
                    .iter()
                    .map(|(name, _)| name.to_string())
                    .collect(),
            },
        )),
        None => Ok(()),
    }
}

fn node_names(scenario: &Scenario) -> NodeNames {
    NodeNames::of_scenario(scenario)
}

fn read_step(
    table: &TableReader<'_>,
    names: &NodeNames,
    world: &Scenario,
    own_world: Option<StepWorld>,
) -> Result<LessonStep> {
    table.check_keys(STEP_KEYS)?;
    let instruction_field = table.required("instruction")?;
    let instruction = instruction_field.string()?.to_string();
    check_live_names(&instruction_field, &instruction)?;
    let checkpoint_field = table.required("checkpoint")?;
    let checkpoint_text = checkpoint_field.string()?.to_string();
    let checkpoint = parse_checkpoint(&checkpoint_text, names).map_err(|error| {
        let mut located = lesson_error(
            &checkpoint_field,
            LessonErrorKind::BadCheckpoint {
                text: checkpoint_text.clone(),
                at: error.at,
                message: error.message,
            },
        );
        // Point inside the string: past the opening quote, at the character that is wrong.
        located.column = located.column.saturating_add(error.at as u32);
        located
    })?;
    let solution = match table.optional("solution") {
        Some(field) => read_solution(field, names)?,
        None => Vec::new(),
    };
    let within_ms = match table.optional("within_ms") {
        Some(field) => field.unsigned_in(1, MAX_DURATION_MS)?,
        None => DEFAULT_WITHIN_MS,
    };
    let predict = match table.optional("predict") {
        Some(field) => field
            .array()?
            .iter()
            .map(|entry| {
                let place = Place {
                    key_prefix: "predict.",
                    ..field.place
                };
                let entry_field = Field {
                    place,
                    ..field.element(entry)
                };
                read_prediction(&table_of(entry_field, "every question")?)
            })
            .collect::<Result<Vec<_>>>()?,
        None => Vec::new(),
    };
    Ok(LessonStep {
        instruction,
        checkpoint_text,
        checkpoint,
        solution,
        within_ms,
        predict,
        own_world,
        pacing: read_pacing(table)?,
        search: match table.optional("search") {
            Some(field) => Some(super::search_step::read_search(field, world)?),
            None => None,
        },
    })
}

fn read_solution(field: Field<'_>, names: &NodeNames) -> Result<Vec<SolutionAction>> {
    let mut actions: Vec<SolutionAction> = Vec::new();
    for entry in field.array()? {
        let place = Place {
            key_prefix: "solution.",
            ..field.place
        };
        let table = table_of(
            Field {
                place,
                ..field.element(entry)
            },
            "every solution action",
        )?;
        let after_field = table.required("after_ms")?;
        let after_ms = after_field.unsigned_in(0, MAX_DURATION_MS)?;
        let previous_ms = actions.last().map_or(0, |action| action.after_ms);
        if after_ms < previous_ms {
            return Err(after_field
                .error(ScenarioErrorKind::StepOutOfOrder {
                    at_ms: after_ms,
                    previous_at_ms: previous_ms,
                })
                .into());
        }
        let action = parse_action(&table, names, &["after_ms"])?;
        actions.push(SolutionAction { after_ms, action });
    }
    Ok(actions)
}

fn read_prediction(table: &TableReader<'_>) -> Result<Prediction> {
    table.check_keys(PREDICT_KEYS)?;
    let question = table.required("question")?.string()?.to_string();
    let options_field = table.required("options")?;
    let mut options = Vec::new();
    for entry in options_field.array()? {
        let option = table_of(options_field.element(entry), "every option")?;
        option.check_keys(OPTION_KEYS)?;
        options.push(PredictOption {
            text: option.required("text")?.string()?.to_string(),
            correct: match option.optional("correct") {
                Some(field) => field.boolean()?,
                None => false,
            },
            explanation: option.required("explanation")?.string()?.to_string(),
        });
    }
    if !options.iter().any(|option| option.correct) {
        return Err(lesson_error(
            &options_field,
            LessonErrorKind::NoCorrectOption,
        ));
    }
    Ok(Prediction { question, options })
}

fn read_interview(field: Field<'_>) -> Result<Vec<InterviewQuestion>> {
    let place = Place {
        key_prefix: "interview.",
        ..field.place
    };
    let mut questions = Vec::new();
    for entry in field.array()? {
        let table = table_of(
            Field {
                place,
                ..field.element(entry)
            },
            "every interview question",
        )?;
        table.check_keys(&["question", "answer"])?;
        questions.push(InterviewQuestion {
            question: table.required("question")?.string()?.to_string(),
            answer: table.required("answer")?.string()?.to_string(),
        });
    }
    Ok(questions)
}
