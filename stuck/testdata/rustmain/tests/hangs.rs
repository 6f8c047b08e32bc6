// A custom harness's test that locks a mutex it already holds, on main.
fn main() {
    println!("locking twice");
    let m = std::sync::Mutex::new(1);
    let _a = m.lock().unwrap();
    let _b = m.lock().unwrap();
}
