pub fn add(a: i32, b: i32) -> i32 { a + b }

#[cfg(test)]
mod tests {
    use super::*;
    #[test] fn adds_small_numbers() { assert_eq!(add(2, 2), 4); }
    #[test] fn adds_negative_numbers() { assert_eq!(add(-2, -3), -5); }
    #[test] fn reports_a_wrong_sum() { assert_eq!(add(2, 2), 5, "two and two"); }
    #[test] #[ignore] fn slow_property_check() { assert!(true); }
    #[test] #[should_panic] fn panics_on_purpose() { panic!("expected"); }
    mod parsing {
        #[test] fn reads_digits() { assert_eq!("42".parse::<i32>().unwrap(), 42); }
        #[test] fn rejects_letters() { "x".parse::<i32>().unwrap(); }
    }
}
