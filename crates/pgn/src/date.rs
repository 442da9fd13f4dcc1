//! PGN dates (`YYYY.MM.DD`, UTC) of points in time, without a date library: the one
//! conversion every program here that writes a `Date` tag needs.

use std::time::{SystemTime, UNIX_EPOCH};

/// The PGN date of a Unix timestamp in milliseconds (negative: before 1970).
pub fn from_unix_ms(ms: i64) -> String {
    let (y, m, d) = civil_from_days(ms.div_euclid(86_400_000));
    format!("{y:04}.{m:02}.{d:02}")
}

/// The PGN date of a point in time.
pub fn of(t: SystemTime) -> String {
    let ms = match t.duration_since(UNIX_EPOCH) {
        Ok(d) => i64::try_from(d.as_millis()).unwrap_or(i64::MAX),
        Err(e) => -i64::try_from(e.duration().as_millis()).unwrap_or(i64::MAX),
    };
    from_unix_ms(ms)
}

/// Today's PGN date.
pub fn today() -> String {
    of(SystemTime::now())
}

/// The proleptic Gregorian date of a day count since 1970-01-01 (Howard Hinnant's
/// days-to-civil algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(from_unix_ms(0), "1970.01.01");
        assert_eq!(from_unix_ms(951_782_400_000), "2000.02.29");
        assert_eq!(from_unix_ms(1_767_225_600_000), "2026.01.01");
        assert_eq!(from_unix_ms(-86_400_000), "1969.12.31");
        assert_eq!(
            of(UNIX_EPOCH + Duration::from_secs(86_400 * 366)),
            "1971.01.02"
        );
        assert_eq!(today().len(), 10);
    }
}
