-- Flight (R8.13): you may slide one of your kings or emperors any distance in
-- one of the eight directions over empty squares; walls block (R5).
function play(ctx)
  local movers, targets = {}, {}
  for _, sq in ipairs(ctx:checker_squares{ owner = ctx:player(), kind = "crowned", hippo = false }) do
    local t = ctx:slide_targets(sq, "all")
    if #t > 0 then
      movers[#movers + 1] = sq
      targets[sq] = t
    end
  end
  if #movers == 0 then
    ctx:log("Flight: no king or emperor of yours can fly")
    return
  end
  local from = ctx:ask_checker("Flight: which king or emperor flies? (none: no flight)", movers, { optional = true })
  if not from then return end
  local to = ctx:ask_square("Flight: to which square?", targets[from])
  ctx:relocate(from, to)
end
