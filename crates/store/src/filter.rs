//! A [`GameFilter`] as SQL: the one reading of a filter, which each backend writes in its own
//! dialect (placeholders, case folding, null-safe comparison), so that both list the same
//! games for the same filter.

use crate::{GameFilter, ABORTED};

/// A value bound to a placeholder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Arg {
    Int(i64),
    Text(String),
}

/// What differs between the backends' SQL.
pub struct Dialect {
    /// The placeholder of argument `n` (1-based): `?1` or `$1`.
    pub placeholder: fn(usize) -> String,
    /// `column` equal to the placeholder `p`, ignoring ASCII case.
    pub equal_folded: fn(&str, &str) -> String,
    /// The argument a folded comparison is given for a name.
    pub fold_arg: fn(&str) -> String,
    /// `a` equal to `b` where NULL equals NULL: `a IS b`, `a IS NOT DISTINCT FROM b`.
    pub null_safe_equal: fn(&str, &str) -> String,
    /// The games table's alias with its dot (`g.`), or nothing.
    pub table: &'static str,
}

/// The `WHERE …` of a filter (empty when it matches everything) and its arguments, numbered
/// from `first` on.
pub(crate) fn where_clause(f: &GameFilter, d: &Dialect, first: usize) -> (String, Vec<Arg>) {
    let t = d.table;
    let mut conds: Vec<String> = Vec::new();
    let mut args: Vec<Arg> = Vec::new();
    let mut arg = |a: Arg| {
        args.push(a);
        (d.placeholder)(first + args.len() - 1)
    };
    if let Some(id) = f.start_id {
        let p = arg(Arg::Int(i64::from(id)));
        conds.push(format!("{t}start_id = {p}"));
    }
    if let Some(name) = &f.player {
        let p = arg(Arg::Text((d.fold_arg)(name)));
        conds.push(format!(
            "({} OR {})",
            (d.equal_folded)(&format!("{t}white"), &p),
            (d.equal_folded)(&format!("{t}black"), &p)
        ));
    }
    if let Some(user) = f.account {
        let p = arg(Arg::Int(user.0));
        conds.push(format!("({t}white_user = {p} OR {t}black_user = {p})"));
    }
    if let Some(r) = &f.result {
        let p = arg(Arg::Text(r.as_str().into()));
        conds.push(format!("{t}result = {p}"));
    }
    if let Some(aborted) = f.aborted {
        let p = arg(Arg::Text(ABORTED.into()));
        conds.push(if aborted {
            format!("({t}result = '*' AND {t}reason = {p})")
        } else {
            format!(
                "NOT ({t}result = '*' AND {})",
                (d.null_safe_equal)(&format!("{t}reason"), &p)
            )
        });
    }
    if let Some(day) = &f.date_from {
        let p = arg(Arg::Text(day.clone()));
        conds.push(format!("{t}date >= {p}"));
    }
    if let Some(day) = &f.date_to {
        // Inclusive of partial dates within the day range, e.g. `2019.??.??` for `2019.12.31`.
        let p = arg(Arg::Text(day.clone()));
        conds.push(format!("{t}date <= {p}"));
    }
    if conds.is_empty() {
        (String::new(), args)
    } else {
        (format!("WHERE {}", conds.join(" AND ")), args)
    }
}

/// The start of a condition after `where_sql` (a [`where_clause`]): `WHERE`, or its
/// conditions followed by `AND`.
pub(crate) fn and_where(where_sql: &str) -> String {
    if where_sql.is_empty() {
        "WHERE".to_owned()
    } else {
        format!("{where_sql} AND")
    }
}
