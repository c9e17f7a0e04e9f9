//! Settings from the client: the target and knobs, from
//! `initializationOptions` or `workspace/didChangeConfiguration`.

use serde_json::Value;

/// The settings the server understands.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Settings {
    /// `Some(None)`: explicitly unset (use each file's `.target`).
    pub target: Option<Option<String>>,
    /// Knob name and value as text (`"true"`, `"8"`).
    pub knobs: Vec<(String, String)>,
}

impl Settings {
    /// Reads `{ "target": "sm_90", "knobs": {..} }`, also under `"ptxopt"`.
    pub fn from_json(value: &Value) -> Settings {
        let value = value.get("ptxopt").unwrap_or(value);
        let mut settings = Settings::default();
        match value.get("target") {
            Some(Value::String(s)) if !s.is_empty() => settings.target = Some(Some(s.clone())),
            Some(Value::Null) | Some(Value::String(_)) => settings.target = Some(None),
            _ => {}
        }
        if let Some(Value::Object(knobs)) = value.get("knobs") {
            for (name, v) in knobs {
                let text = match v {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                settings.knobs.push((name.clone(), text));
            }
        }
        settings
    }

    /// Applies the settings to the host; returns the problems.
    pub fn apply(&self, host: &mut ptx_ide::AnalysisHost) -> Vec<String> {
        let mut errors = Vec::new();
        if let Some(target) = &self.target {
            if let Err(e) = host.set_target(target.as_deref()) {
                errors.push(e);
            }
        }
        for (name, value) in &self.knobs {
            if let Err(e) = host.set_knob(name, value) {
                errors.push(e);
            }
        }
        errors
    }
}
