fn main() {
    println!("{}", rustbenchname::double(21));
}
