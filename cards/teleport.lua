-- Teleport (R8.11): the checker moved this turn may go to any empty square of
-- the colour of the square it started the turn on. No capture.
function play(ctx)
  local moved = ctx:moved()
  if not moved then
    ctx:log("Teleport: no checker moved this turn")
    return
  end
  local checker = ctx:checker(moved.now)
  if not checker or checker.owner ~= ctx:player() then
    ctx:log("Teleport: the checker moved this turn is no longer on " .. moved.now)
    return
  end
  if checker.hippo then
    ctx:log("Teleport: the checker on " .. moved.now .. " is frozen by a galactic hippo (R4.7)")
    return
  end
  local targets = { empty = true, colour = ctx:colour(moved.start) }
  if ctx:count_squares(targets) == 0 then
    ctx:log("Teleport: no empty square of that colour")
    return
  end
  local to = ctx:ask_square_where("Teleport: to which empty square? (none: stay on " .. moved.now .. ")", targets,
    { optional = true })
  if to then ctx:relocate(moved.now, to) end
end
