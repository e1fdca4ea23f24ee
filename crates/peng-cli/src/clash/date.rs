//! The current time as ISO 8601 in UTC (`2026-11-28T23:58:00Z`), from the
//! system clock: the creation date of the BCF topics.

use std::time::{SystemTime, UNIX_EPOCH};

/// Now, as `YYYY-MM-DDTHH:MM:SSZ` in UTC.
pub fn now_utc() -> String {
    let secs = match SystemTime::now().duration_since(UNIX_EPOCH) {
        Ok(d) => i64::try_from(d.as_secs()).unwrap_or(i64::MAX),
        // A clock set before 1970.
        Err(e) => -i64::try_from(e.duration().as_secs()).unwrap_or(i64::MAX),
    };
    iso8601(secs)
}

/// Seconds since 1970-01-01T00:00:00Z as `YYYY-MM-DDTHH:MM:SSZ`.
pub fn iso8601(secs: i64) -> String {
    let days = secs.div_euclid(86_400);
    let s = secs.rem_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        s / 3600,
        s / 60 % 60,
        s % 60
    )
}

/// The proleptic Gregorian (year, month, day) of `days` since 1970-01-01
/// (negative before): Howard Hinnant's `civil_from_days`
/// (<https://howardhinnant.github.io/date_algorithms.html>), counting in
/// 400-year eras of 146,097 days that start on 0000-03-01, so the leap day
/// ends each era-year.
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468; // days since 0000-03-01
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097); // [0, 146096]
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365; // [0, 399]
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100); // [0, 365], from March 1
    let mp = (5 * doy + 2) / 153; // [0, 11], March = 0
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32; // [1, 31]
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32; // [1, 12]
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(iso8601(0), "1970-01-01T00:00:00Z");
        // A leap day of a year divisible by 400.
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(iso8601(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(civil_from_days(11_017), (2000, 3, 1));
        // 2026-11-28 is day 20,785.
        assert_eq!(
            iso8601(20_785 * 86_400 + 23 * 3600 + 58 * 60),
            "2026-11-28T23:58:00Z"
        );
        assert_eq!(iso8601(20_785 * 86_400 - 1), "2026-11-27T23:59:59Z");
        // New Year, and 1900 (not a leap year): Feb 28 is followed by Mar 1.
        assert_eq!(civil_from_days(10_957), (2000, 1, 1));
        assert_eq!(civil_from_days(-25_509), (1900, 2, 28));
        assert_eq!(civil_from_days(-25_508), (1900, 3, 1));
        // Before the epoch.
        assert_eq!(iso8601(-1), "1969-12-31T23:59:59Z");
        assert_eq!(civil_from_days(-135_080), (1600, 3, 1));
    }

    #[test]
    fn every_day_follows_the_last() {
        // Day by day from 1899 to 2101: the date always steps by one day.
        let month_len = |y: i64, m: u32| match m {
            2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
            2 => 28,
            4 | 6 | 9 | 11 => 30,
            _ => 31,
        };
        let mut prev = civil_from_days(-25_933);
        assert_eq!(prev, (1898, 12, 31));
        for days in -25_932..48_000 {
            let (y, m, d) = civil_from_days(days);
            let (py, pm, pd) = prev;
            let expected = if pd < month_len(py, pm) {
                (py, pm, pd + 1)
            } else if pm < 12 {
                (py, pm + 1, 1)
            } else {
                (py + 1, 1, 1)
            };
            assert_eq!((y, m, d), expected, "day {days}");
            prev = (y, m, d);
        }
    }

    #[test]
    fn now_has_the_shape() {
        let n = now_utc();
        assert_eq!(n.len(), 20, "{n}");
        assert!(n.ends_with('Z') && n.as_bytes()[10] == b'T', "{n}");
        assert!(n.as_str() >= "2024", "{n}");
    }
}
